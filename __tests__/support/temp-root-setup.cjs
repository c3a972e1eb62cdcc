// One temporary folder per `npm test` run, removed by temp-root-teardown.cjs when the run
// ends: tests (and every git, node or CLI process they start) make their folders under
// os.tmpdir(), which follows TMPDIR, so nothing a test forgets to remove outlives the run.
const { mkdtempSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

module.exports = async () => {
  const root = mkdtempSync(join(tmpdir(), 'receipt-gate-tests-'))
  process.env.RECEIPT_GATE_TEST_ROOT = root
  process.env.TMPDIR = root
}
