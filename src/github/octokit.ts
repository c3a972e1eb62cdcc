/**
 * `@actions/github`'s octokit, bundled on its own as dist/octokit.js: `http.ts` loads it
 * only when a proxy is configured (it honours HTTPS_PROXY and NO_PROXY).
 */
export { getOctokit } from '@actions/github'
