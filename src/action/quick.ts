/**
 * The action's light path (issue 7): an event with nothing to gate (SPEC §2.1: any event
 * other than the PR, workflow_run and merge_group ones, without `pull-number`) is
 * answered here, before the GitHub client, the toolkit and the receipt validation load —
 * they are most of the action's start-up time. The answer is what `main.ts` gives: the
 * inputs are read and checked, "nothing to gate" is logged, the outputs are set (neutral).
 * Anything else is handed to the full action, with what was read (its early reads,
 * `prefetch.ts`, start from it too); anything unexpected, with nothing: the full action
 * reads it all again and reports what is wrong.
 */
import { info, setOutput } from './commands.js'
import { readRunContext, type RunContext } from './context.js'
import { routeEvent, type EventRoute } from './event.js'
import { maskToken, readInputs, type ActionInputs } from './inputs.js'
import { emptyOutputs } from './outputs.js'

/**
 * What a run starts from: its inputs, its environment, its route. The token is not
 * masked yet: whoever writes the run's first output masks it first (`maskToken`).
 */
export interface RunStart {
  inputs: ActionInputs
  context: RunContext
  route: EventRoute
}

/** Reads the inputs (throws on a bad one), the run's environment and the event's route. */
export function readStart(env: NodeJS.ProcessEnv = process.env): RunStart {
  const inputs = readInputs()
  const context = readRunContext(env)
  const route = routeEvent(context.eventName, context.payload, inputs.pullNumber)
  return { inputs, context, route }
}

/**
 * Answers an event with nothing to gate ('answered'); otherwise what was read, for the
 * full action, or null.
 */
export function lightStart(
  env: NodeJS.ProcessEnv = process.env
): 'answered' | RunStart | null {
  // Without the runner's output file (not a runner), leave it to the full action.
  if (!env.GITHUB_OUTPUT) return null
  try {
    const start = readStart(env)
    const { route } = start
    if (route.kind !== 'nothing') return start
    maskToken(start.inputs)
    info(`Receipt Gate: nothing to gate (${route.why}).`)
    for (const [name, value] of Object.entries(emptyOutputs('neutral')))
      setOutput(name, value)
    return 'answered'
  } catch {
    return null
  }
}
