/**
 * The git processes a run started, read from a GIT_TRACE2 log (normal format): for the
 * bench's process counts and the tests that say which git commands a run needs.
 */

/** Each process's subcommand, in start order (`cat-file` with its mode: `cat-file --batch-command`). */
export function gitCommands(trace: string): string[] {
  const out: string[] = []
  for (const line of trace.split('\n')) {
    const m = / start (.*)$/.exec(line)
    if (!m) continue
    const argv = m[1]!.split(' ')
    let i = 1 // after `git`
    while (i < argv.length && argv[i]!.startsWith('-')) {
      i += argv[i] === '-C' || argv[i] === '-c' ? 2 : 1
    }
    let cmd = argv[i] ?? '?'
    if (cmd === 'cat-file') cmd += ` ${argv[i + 1] ?? ''}`.trimEnd()
    out.push(cmd)
  }
  return out
}

/** How many processes ran each subcommand. */
export function countGit(trace: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const cmd of gitCommands(trace)) out[cmd] = (out[cmd] ?? 0) + 1
  return out
}
