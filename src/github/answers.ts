/**
 * GitHub's REST answers, checked where they enter: every answer may be hostile (a proxy,
 * an impostor at `GITHUB_API_URL`), and Octokit's types only say what GitHub documents.
 * Per route the product reads, the fields it reads (optional where it can do without
 * one); a route it does not read is not checked. A malformed answer fails its request with the field that is wrong, so it
 * becomes an unreadable receipt, an unknown or the step's message, never a TypeError
 * deep in the gate. The GraphQL answers have their own schemas (graphql-source.ts).
 */
import { z } from 'zod'

const Sha = z.object({ sha: z.string() })
const Commit = z.object({ sha: z.string(), parents: z.array(Sha) })
const CheckRun = z.object({
  id: z.number(),
  html_url: z.string().nullish(),
  external_id: z.string().nullish(),
  output: z.object({ annotations_count: z.number() })
})
const Files = z.array(
  z.object({
    filename: z.string(),
    previous_filename: z.string().optional(),
    status: z.string().optional(),
    patch: z.string().optional()
  })
)
const Repo = z.object({ full_name: z.string() })

/** By `<method> <path>` (a route template, or a page's URL without its query). */
const ROUTES: ReadonlyArray<[RegExp, z.ZodType]> = [
  [
    /^GET .*\/compare\/[^/]+$/,
    z.object({
      status: z.string(),
      ahead_by: z.number(),
      base_commit: Sha,
      merge_base_commit: Sha,
      total_commits: z.number().optional(),
      commits: z.array(Commit).optional(),
      files: Files.optional()
    })
  ],
  [/^GET .*\/commits\/[^/]+$/, z.object({ files: Files.optional() })],
  [/^GET .*\/commits$/, z.array(Commit)],
  [/^GET .*\/pulls\/[^/]+\/files$/, Files],
  [
    /^GET .*\/pulls\/[^/]+$/,
    z.object({
      number: z.number(),
      head: z.object({ sha: z.string(), ref: z.string(), repo: Repo.nullable() }),
      base: z.object({ sha: z.string(), repo: Repo }),
      body: z.string().nullable(),
      changed_files: z.number()
    })
  ],
  [
    /^GET .*\/commits\/[^/]+\/pulls$/,
    z.array(
      z.object({
        number: z.number(),
        state: z.string(),
        head: Sha,
        body: z.string().nullable()
      })
    )
  ],
  [/^GET .*\/pulls$/, z.array(z.object({ number: z.number(), head: Sha }))],
  [
    /^GET .*\/git\/trees\/.+$/,
    z.object({
      tree: z.array(
        z.object({
          path: z.string(),
          type: z.string(),
          sha: z.string(),
          mode: z.string().optional(),
          size: z.number().optional()
        })
      ),
      truncated: z.boolean().optional()
    })
  ],
  [
    /^GET .*\/git\/blobs\/[^/]+$/,
    z.object({ content: z.string(), encoding: z.string() })
  ],
  [
    /^GET .*\/contents\//,
    z.union([
      z.array(z.unknown()),
      z.object({
        type: z.string(),
        size: z.number(),
        encoding: z.string().optional(),
        content: z.string().optional()
      })
    ])
  ],
  [/^POST .*\/check-runs$|^GET .*\/check-runs\/[^/]+$/, CheckRun],
  [/^GET .*\/check-runs$/, z.object({ check_runs: z.array(CheckRun) })]
]

/**
 * Why the answer to `method url` is not one the product can read, or null when it is (or
 * the route's answer is not read).
 */
export function malformedAnswer(
  method: string,
  url: string,
  data: unknown
): string | null {
  const route = `${method} ${url.split('?')[0]}`
  const issue = ROUTES.find(([pattern]) => pattern.test(route))?.[1].safeParse(data).error
    ?.issues[0]
  if (!issue) return null
  const at = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''
  return `GitHub's answer is malformed${at}: ${issue.message}`
}
