/**
 * The pull request as the action reads it: one GraphQL query (the PR, and with a known
 * head the receipts folder and the deferral file too), REST's pulls.get where GraphQL
 * fails — a token GraphQL refuses, an outage, its own rate limit: REST answers the same.
 * The action and the CLI (`check --pr`, `land`) share it, so they judge alike.
 */
import {
  graphqlFailure,
  readWithGraphql,
  type GraphqlRead,
  type GraphqlReadOptions
} from './graphql-source.js'
import { getPullRequest, type PullRequestInfo } from './pulls.js'
import { isBug } from '../util/errors.js'

/** The PR and its GraphQL read (null: read through REST; `onFallback` was told why). */
export async function readPullRequest(
  options: GraphqlReadOptions,
  onFallback: (why: string) => void
): Promise<{ pull: PullRequestInfo; graphql: GraphqlRead | null }> {
  try {
    const graphql = await readWithGraphql(options)
    return { pull: graphql.pull, graphql }
  } catch (error) {
    // A bug of the read itself is no GraphQL failure: hidden behind REST, it would never show.
    if (isBug(error)) throw error
    onFallback(graphqlFailure(error))
    const { octokit, owner, repo, number } = options
    return { pull: await getPullRequest(octokit, owner, repo, number), graphql: null }
  }
}
