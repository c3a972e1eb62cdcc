// Removes the run's temporary folder (see temp-root-setup.cjs).
const { rmSync } = require('node:fs')

module.exports = async () => {
  const root = process.env.RECEIPT_GATE_TEST_ROOT
  if (root) rmSync(root, { recursive: true, force: true, maxRetries: 3 })
}
