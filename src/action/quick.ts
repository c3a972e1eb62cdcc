/**
 * The action's light path (issue 7): an event with nothing to gate (SPEC §2.1: any event
 * other than the PR, workflow_run and merge_group ones, without `pull-number`) is
 * answered here, before the GitHub client, the toolkit and the receipt validation load —
 * they are most of the action's start-up time. The answer is what `main.ts` gives: the
 * inputs are read and checked, "nothing to gate" is logged, the outputs are set (neutral).
 * Anything else is handed to the full action, with what was read for its early reads
 * (`prefetch.ts`); anything unexpected, with nothing: the full action reads it all again
 * and reports what is wrong.
 */
import { info, setOutput } from './commands.js'
import { readRunContext } from './context.js'
import { routeEvent } from './event.js'
import { maskSecret, readInputs } from './inputs.js'
import { emptyOutputs } from './outputs.js'
import type { EarlyStart } from './prefetch.js'

/**
 * Answers an event with nothing to gate ('answered'); otherwise what the full action
 * needs to start its early reads, or null.
 */
export function lightStart(
  env: NodeJS.ProcessEnv = process.env
): 'answered' | EarlyStart | null {
  // Without the runner's output file (not a runner), leave it to the full action.
  if (!env.GITHUB_OUTPUT) return null
  try {
    const inputs = readInputs({ mask: false })
    const context = readRunContext(env)
    const route = routeEvent(context.eventName, context.payload, inputs.pullNumber)
    if (route.kind !== 'nothing') return { inputs, context, route }
    if (inputs.token !== '') maskSecret(inputs.token)
    info(`Receipt Gate: nothing to gate (${route.why}).`)
    for (const [name, value] of Object.entries(emptyOutputs('neutral')))
      setOutput(name, value)
    return 'answered'
  } catch {
    return null
  }
}
