export const id = 559;
export const ids = [559];
export const modules = {

/***/ 2559:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  checkPullRequest: () => (/* binding */ checkPullRequest),
  prTarget: () => (/* binding */ prTarget)
});

// EXTERNAL MODULE: ../../main/node_modules/@actions/core/lib/core.js + 14 modules
var lib_core = __webpack_require__(4559);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: ../../main/node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(9436);
// EXTERNAL MODULE: ../../main/node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(4225);
// EXTERNAL MODULE: ../../main/node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(4038);
// EXTERNAL MODULE: ../../main/node_modules/bottleneck/light.js
var light = __webpack_require__(2725);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
// EXTERNAL MODULE: ../../main/node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(7838);
;// CONCATENATED MODULE: ./src/github/answers.ts
/**
 * GitHub's REST answers, checked where they enter: every answer may be hostile (a proxy,
 * an impostor at `GITHUB_API_URL`), and Octokit's types only say what GitHub documents.
 * Per route the product reads, the fields it reads (optional where it can do without
 * one); a route it does not read is not checked. A malformed answer fails its request with the field that is wrong, so it
 * becomes an unreadable receipt, an unknown or the step's message, never a TypeError
 * deep in the gate. The GraphQL answers have their own schemas (graphql-source.ts).
 */

const Sha = schemas/* object */.Ikc({ sha: schemas/* string */.YjP() });
const Commit = schemas/* object */.Ikc({ sha: schemas/* string */.YjP(), parents: schemas/* array */.YOg(Sha) });
const CheckRun = schemas/* object */.Ikc({
    id: schemas/* number */.aig(),
    html_url: schemas/* string */.YjP().nullish(),
    external_id: schemas/* string */.YjP().nullish(),
    output: schemas/* object */.Ikc({ annotations_count: schemas/* number */.aig() })
});
const Files = schemas/* array */.YOg(schemas/* object */.Ikc({
    filename: schemas/* string */.YjP(),
    previous_filename: schemas/* string */.YjP().optional(),
    status: schemas/* string */.YjP().optional(),
    patch: schemas/* string */.YjP().optional()
}));
const Repo = schemas/* object */.Ikc({ full_name: schemas/* string */.YjP() });
/** By `<method> <path>` (a route template, or a page's URL without its query). */
const ROUTES = [
    [
        /^GET .*\/compare\/[^/]+$/,
        schemas/* object */.Ikc({
            status: schemas/* string */.YjP(),
            ahead_by: schemas/* number */.aig(),
            base_commit: Sha,
            merge_base_commit: Sha,
            files: Files.optional()
        })
    ],
    [/^GET .*\/commits\/[^/]+$/, schemas/* object */.Ikc({ files: Files.optional() })],
    [/^GET .*\/commits$/, schemas/* array */.YOg(Commit)],
    [/^GET .*\/pulls\/[^/]+\/files$/, Files],
    [
        /^GET .*\/pulls\/[^/]+$/,
        schemas/* object */.Ikc({
            number: schemas/* number */.aig(),
            head: schemas/* object */.Ikc({ sha: schemas/* string */.YjP(), ref: schemas/* string */.YjP(), repo: Repo.nullable() }),
            base: schemas/* object */.Ikc({ sha: schemas/* string */.YjP(), repo: Repo }),
            body: schemas/* string */.YjP().nullable(),
            changed_files: schemas/* number */.aig()
        })
    ],
    [
        /^GET .*\/commits\/[^/]+\/pulls$/,
        schemas/* array */.YOg(schemas/* object */.Ikc({
            number: schemas/* number */.aig(),
            state: schemas/* string */.YjP(),
            head: Sha,
            body: schemas/* string */.YjP().nullable()
        }))
    ],
    [/^GET .*\/pulls$/, schemas/* array */.YOg(schemas/* object */.Ikc({ number: schemas/* number */.aig(), head: Sha }))],
    [
        /^GET .*\/git\/trees\/.+$/,
        schemas/* object */.Ikc({
            tree: schemas/* array */.YOg(schemas/* object */.Ikc({
                path: schemas/* string */.YjP(),
                type: schemas/* string */.YjP(),
                sha: schemas/* string */.YjP(),
                mode: schemas/* string */.YjP().optional(),
                size: schemas/* number */.aig().optional()
            })),
            truncated: schemas/* boolean */.zMY().optional()
        })
    ],
    [
        /^GET .*\/git\/blobs\/[^/]+$/,
        schemas/* object */.Ikc({ content: schemas/* string */.YjP(), encoding: schemas/* string */.YjP() })
    ],
    [
        /^GET .*\/contents\//,
        schemas/* union */.KCZ([
            schemas/* array */.YOg(schemas/* unknown */.L5J()),
            schemas/* object */.Ikc({
                type: schemas/* string */.YjP(),
                size: schemas/* number */.aig(),
                encoding: schemas/* string */.YjP().optional(),
                content: schemas/* string */.YjP().optional()
            })
        ])
    ],
    [/^POST .*\/check-runs$|^GET .*\/check-runs\/[^/]+$/, CheckRun],
    [/^GET .*\/check-runs$/, schemas/* object */.Ikc({ check_runs: schemas/* array */.YOg(CheckRun) })]
];
/**
 * Why the answer to `method url` is not one the product can read, or null when it is (or
 * the route's answer is not read).
 */
function malformedAnswer(method, url, data) {
    const route = `${method} ${url.split('?')[0]}`;
    const issue = ROUTES.find(([pattern]) => pattern.test(route))?.[1].safeParse(data).error
        ?.issues[0];
    if (!issue)
        return null;
    const at = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return `GitHub's answer is malformed${at}: ${issue.message}`;
}

;// CONCATENATED MODULE: ./src/github/client.ts
/**
 * The GitHub client: `@actions/github`'s Octokit with the retry and throttling plugins,
 * and the product's policy (SPEC §5): a 20 s deadline per attempt, reads retried on 5xx
 * and network errors (writes only by `checks.ts`, once it proved the first did not land),
 * rate limits waited for up to 60 s, every wait shrunk by `RECEIPT_GATE_TIME_SCALE`.
 */





const MAX_RETRIES = 3;
const REQUEST_TIMEOUT_MS = 20_000;
const MAX_RATE_LIMIT_WAIT_S = 60;
/** Thrown when a request failed for good; the message never contains the token. */
class GitHubError extends Error {
    status;
    constructor(message, 
    /** HTTP status, or undefined when no answer came (network error, timeout). */
    status) {
        super(message);
        this.status = status;
    }
}
/**
 * The timeout of one attempt: 20 s, shrunk by the tests' time scale but never below 1 s
 * (a second is still far below any latency a test stages, and above a healthy answer).
 */
function attemptTimeoutMs(timeScale) {
    return Math.max(1000, REQUEST_TIMEOUT_MS * timeScale);
}
/** 1 s, 2 s, 4 s (before the time scale): `checks.ts` between looks at a write's effect. */
const backoff = (attempt) => 1000 * 2 ** attempt;
/** Builds the client. */
function createClient(options) {
    const { token, timeScale } = options;
    const log = options.onRetry ?? (() => undefined);
    const onLimit = (after, params, _octokit, retryCount) => {
        if (after > MAX_RATE_LIMIT_WAIT_S || retryCount >= MAX_RETRIES)
            return false;
        log(`${params.method} ${params.url}: rate limited; retrying in ${after} s`);
        return true;
    };
    const octokit = (0,github/* getOctokit */.Q)(token, {
        ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
        retry: {
            retryAfterBaseValue: 1000 * timeScale,
            // 429 and 403 are rate limits, the throttling plugin's to wait for.
            doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451]
        },
        throttle: {
            retryAfterBaseValue: 1000 * timeScale,
            onRateLimit: onLimit,
            onSecondaryRateLimit: onLimit,
            // GitHub's one-second spacing is advice for bulk writes; a run makes a few.
            write: new (light_default()).Group({ maxConcurrent: 1 })
        }
    }, 
    // Innermost first: each attempt (retries included) gets its own deadline.
    perAttempt(timeScale, log), dist_bundle/* retry */.L, plugin_throttling_dist_bundle/* throttling */.A);
    // Outermost: answers checked (answers.ts); one error type, named by route, without the token.
    octokit.hook.wrap('request', async (request, params) => {
        const route = `${params.method} ${params.url}`;
        try {
            const response = await request(params);
            const malformed = malformedAnswer(params.method, params.url, response.data);
            if (malformed)
                throw new GitHubError(malformed, response.status);
            return response;
        }
        catch (error) {
            const { message, status } = describe(error);
            throw new GitHubError(`${route}: ${redact(message, token)}`, status);
        }
    });
    return octokit;
}
/**
 * A plugin that bounds each attempt (an AbortSignal on the object the hook chain
 * holds: options handed to the next hook are ignored), keeps plugin-retry off writes,
 * refuses answers that an https request got over http, and logs the retries to come.
 */
function perAttempt(timeScale, log) {
    return (octokit) => {
        octokit.hook.wrap('request', async (request, options) => {
            const params = options;
            // The product's GraphQL requests are all queries: reads, retried like REST reads.
            const read = params.method === 'GET' ||
                params.method === 'HEAD' ||
                /\/graphql$/.test(params.url);
            const signal = AbortSignal.timeout(attemptTimeoutMs(timeScale));
            params.request = { ...params.request, signal, ...(read ? {} : { retries: 0 }) };
            try {
                const response = await request(options);
                // A body cut by the deadline reads as "" in @octokit/request: not an answer (thrown
                // as @octokit/request reports a failed attempt, which plugin-retry retries).
                if (signal.aborted)
                    throw Object.assign(new Error('request timed out'), {
                        name: 'TimeoutError',
                        status: 500,
                        request: options
                    });
                // An answer reached over http after an https request (a redirect) is not GitHub's.
                if (options.baseUrl?.startsWith('https:') && response.url?.startsWith('http:'))
                    throw new GitHubError(`refused a redirect from https to ${response.url}`, 400);
                return response;
            }
            catch (error) {
                const { status } = describe(error);
                const why = status === undefined ? 'network error' : `HTTP ${status}`;
                if (read && client_transient(status) && (params.request.retryCount ?? 0) < MAX_RETRIES)
                    log(`${params.method} ${params.url}: ${why}; retrying`);
                throw error;
            }
        });
    };
}
/**
 * An error message is GitHub's (or a proxy's) text: should it ever echo the token, it
 * would reach the log, the check run summary and the report, and only the log is masked.
 */
function redact(message, token) {
    return token.length >= 4 ? message.split(token).join('***') : message;
}
/** Status and message of an Octokit error; never its request headers. */
function describe(error) {
    if (error instanceof GitHubError)
        return error;
    const e = error;
    // @octokit/request reports fetch failures (resets, timeouts) as 500 without an answer.
    const status = typeof e.status === 'number' && e.response !== undefined ? e.status : undefined;
    if (status === undefined) {
        const text = typeof e.message === 'string' ? e.message : 'request failed';
        // The deadline's error, or (from another realm, as in jest) the cause of Octokit's.
        const timedOut = [e.name, e.cause?.name].includes('TimeoutError') || /abort|timeout/i.test(text);
        const message = timedOut
            ? 'request timed out'
            : `network error: ${text.split('\n')[0]}`;
        return { status, message };
    }
    const apiMessage = e.response?.data?.message;
    const text = typeof apiMessage === 'string' ? apiMessage : `HTTP ${status}`;
    const message = `${status} ${text}`;
    if (status !== 403 && status !== 429)
        return { status, message };
    // A rate limit not waited for: the wait asked for, past the 60 s this step waits.
    const headers = e.response?.headers ?? {};
    const after = Number(headers['retry-after']);
    const reset = Number(headers['x-ratelimit-reset']);
    const wait = Number.isFinite(after) && after >= 0
        ? after
        : headers['x-ratelimit-remaining'] === '0' && reset > 0
            ? Math.ceil(reset - Date.now() / 1000)
            : /rate limit/i.test(text)
                ? MAX_RATE_LIMIT_WAIT_S
                : null;
    if (wait === null)
        return { status, message };
    const note = wait > MAX_RATE_LIMIT_WAIT_S
        ? ` (GitHub rate limit: retry possible in ${wait} s, more than the ${MAX_RATE_LIMIT_WAIT_S} s this step waits)`
        : ` (GitHub rate limit persisted after ${MAX_RETRIES} waits)`;
    return { status, message: message + note };
}
/** No answer (network error, timeout) or a 5xx: the same request may yet succeed. */
const client_transient = (status) => status === undefined || status >= 500;
/** GitHub's answer to a name it cannot resolve (a commit, `<commit>:<path>`): 404 or 422. */
const isUnknownName = (error) => error instanceof GitHubError && (error.status === 404 || error.status === 422);

;// CONCATENATED MODULE: ./src/github/checks.ts
/**
 * Publishing the check run (SPEC §5): created already completed with its conclusion
 * and the first 50 annotations, the rest in sequential PATCH batches of 50 (GitHub
 * appends them). Writes are retried only when it is provable that the first attempt
 * did not land: a create is looked up by `external_id` first, a PATCH by the run's
 * annotation count. A batch answered 422 is split until the rejected annotations are
 * isolated; the rest are posted and the dropped ones named in the summary.
 */


/** Annotations a check-run write carries at most. */
const PER_REQUEST = 50;
/** Raised on 403 without a rate limit: no `checks: write` (fork PRs). The caller falls back. */
class ChecksForbiddenError extends Error {
}
/** Creates the completed check run and posts every annotation. */
async function publishCheckRun(octokit, input) {
    const { annotations } = input;
    const created = await createOnce(octokit, input, annotations.slice(0, PER_REQUEST));
    let done = created;
    for (let at = PER_REQUEST; at < annotations.length; at += PER_REQUEST) {
        const batch = annotations.slice(at, at + PER_REQUEST);
        done = await postBatch(octokit, input, created.id, batch, done);
    }
    if (done.dropped.length > 0)
        await update(octokit, input, created.id, {
            summary: input.summaryWithDropped(done.dropped)
        });
    return { id: created.id, url: created.url, ...done };
}
/** Maps the 403 GitHub gives a token without `checks: write` to {@link ChecksForbiddenError}. */
async function guarded(fn) {
    try {
        return await fn();
    }
    catch (error) {
        if (checks_status(error) === 403 && !/rate limit/i.test(error.message))
            throw new ChecksForbiddenError(error.message);
        throw error;
    }
}
/** PATCHes the run's output: its title and summary, and `annotations` when given. */
async function update(octokit, input, id, output) {
    await guarded(async () => octokit.rest.checks.update({
        owner: input.owner,
        repo: input.repo,
        check_run_id: id,
        output: { title: input.title, summary: input.summary, ...output }
    }));
}
/** The HTTP status of a failed request; undefined when no answer came; null: not one. */
const checks_status = (error) => error instanceof GitHubError ? error.status : null;
/**
 * Sends a write, and after a transient failure looks for its effect before sending it
 * again (up to {@link MAX_RETRIES} times): a write whose answer was lost may have landed,
 * and re-sending it posted a second check run or the same annotations twice.
 */
async function writeOnce(input, write) {
    for (let attempt = 0;; attempt++) {
        try {
            return await write.send();
        }
        catch (error) {
            const code = checks_status(error);
            if (code === 422 && write.refused)
                return write.refused(error);
            if (code === null || !client_transient(code) || attempt >= MAX_RETRIES)
                throw error;
            if (write.what)
                input.log(`${write.what} failed (${error.message}); looking for it before retrying`);
            // Unanswered (timeout, reset), the write may land late: keep looking (with backoff)
            // for one request timeout, longer than GitHub spends on a request. Else one look.
            const deadline = Date.now() + (code === undefined ? attemptTimeoutMs(input.timeScale) : 0);
            for (let look = 0;; look++) {
                const found = await write.find();
                if (found !== null)
                    return found;
                const left = deadline - Date.now();
                if (left <= 0)
                    break;
                await (0,external_node_timers_promises_.setTimeout)(Math.min(backoff(look) * input.timeScale, left));
            }
            await (0,external_node_timers_promises_.setTimeout)(backoff(attempt) * input.timeScale);
        }
    }
}
/** POSTs the run, looked up by `external_id` after a transient failure. */
async function createOnce(octokit, input, first) {
    return writeOnce(input, {
        what: 'creating the check run',
        send: async () => {
            const { data } = await guarded(async () => octokit.rest.checks.create({
                owner: input.owner,
                repo: input.repo,
                name: input.name,
                head_sha: input.headSha,
                external_id: input.externalId,
                status: 'completed',
                conclusion: input.conclusion,
                completed_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
                output: { title: input.title, summary: input.summary, annotations: [...first] }
            }));
            return { id: data.id, url: data.html_url ?? '', posted: first.length, dropped: [] };
        },
        find: async () => {
            const { data } = await octokit.rest.checks.listForRef({
                owner: input.owner,
                repo: input.repo,
                ref: input.headSha,
                check_name: input.name,
                filter: 'all',
                per_page: 100
            });
            const run = data.check_runs.find((c) => c.external_id === input.externalId);
            if (!run)
                return null;
            const posted = Math.min(first.length, run.output.annotations_count);
            return { id: run.id, url: run.html_url ?? '', posted, dropped: [] };
        },
        // The annotations were refused: create without them, then isolate the bad ones.
        refused: first.length > 0
            ? async () => {
                const created = await createOnce(octokit, input, []);
                return {
                    ...created,
                    ...(await postBatch(octokit, input, created.id, first, created))
                };
            }
            : undefined
    });
}
/** PATCHes one batch after `before` (the annotations the run holds, those dropped so far). */
async function postBatch(octokit, input, id, batch, before, probed = false) {
    if (batch.length === 0)
        return before;
    const posted = before.posted + batch.length;
    const done = () => ({ posted, dropped: before.dropped });
    return writeOnce(input, {
        send: async () => {
            await update(octokit, input, id, { annotations: [...batch] });
            return done();
        },
        // Annotations append: a PATCH that landed behind a 502 must not be sent twice.
        find: async () => {
            const { data } = await octokit.rest.checks.get({
                owner: input.owner,
                repo: input.repo,
                check_run_id: id
            });
            return data.output.annotations_count >= posted ? done() : null;
        },
        // Split in halves until each refused annotation stands alone. A 422 may come from the
        // output itself, not the annotations: one PATCH without them tells, before splitting.
        refused: async (error) => {
            if (batch.length > 1 && !probed)
                await update(octokit, input, id, {});
            const [only] = batch;
            if (batch.length === 1 && only) {
                const dropped = { annotation: only, reason: error.message };
                return { posted: before.posted, dropped: [...before.dropped, dropped] };
            }
            const half = Math.ceil(batch.length / 2);
            const left = await postBatch(octokit, input, id, batch.slice(0, half), before, true);
            return postBatch(octokit, input, id, batch.slice(half), left, true);
        }
    });
}

// EXTERNAL MODULE: ./src/render/markdown-escape.ts
var markdown_escape = __webpack_require__(202);
// EXTERNAL MODULE: ./src/render/summary.ts
var summary = __webpack_require__(557);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./src/util/safe-text.ts
var safe_text = __webpack_require__(5218);
;// CONCATENATED MODULE: ./src/action/log.ts
/**
 * Logging untrusted text. Receipt text may hold `::set-output`, `::add-mask` or
 * `##[error]`: printed raw, the runner would execute it. Every untrusted line goes
 * between `::stop-commands::<token>` and `::<token>::`, which turns command processing
 * off for the lines between; the token is one that none of the lines holds.
 */



/** Prints `lines` with workflow commands disabled (`draw`: the token's source, for tests). */
function logUntrusted(write, lines, draw = external_node_crypto_.randomUUID) {
    if (lines.length === 0)
        return;
    // Inside the block the runner executes nothing, but its log viewer still renders ANSI
    // escapes and bidi overrides: those (and every other control) are shown as \u{…}.
    const shown = lines.map((line) => (0,safe_text/* terminalLine */.tL)(line.replace(/\r?\n|\r/g, ' ')));
    // Safety comes from this check, not from the randomness: no line can end the block.
    let token = draw();
    while (shown.some((line) => line.includes(token)))
        token = draw();
    write(`::stop-commands::${token}`);
    for (const line of shown)
        write(line);
    write(`::${token}::`);
}
/** {@link logUntrusted} to the step's log. */
const log_logUntrustedLines = (lines) => logUntrusted(lib_core.info, lines);

;// CONCATENATED MODULE: ./src/action/publish.ts
/**
 * Publishing a report: the check run (or, on 403, the workflow-command fallback), the
 * job summary and the JSON report file. Returns what happened; `main.ts` sets outputs.
 */








/**
 * Posts the check run. On 403 (a fork PR's read-only token, or no `checks: write`) the log
 * says why, and the annotations follow as workflow commands.
 */
async function publishReport(report, { octokit, checkName, fork, ...checkRun }) {
    try {
        const run = await publishCheckRun(octokit, {
            ...checkRun,
            name: checkName,
            conclusion: report.conclusion,
            title: (0,summary/* renderTitle */.zF)(report),
            summary: (0,summary/* renderSummary */.Br)(report, summary/* SUMMARY_LIMITS */.QF.checkRun),
            annotations: report.annotations,
            summaryWithDropped: (dropped) => withDropped(report, dropped),
            // These lines quote GitHub's error message: an API answer is untrusted text too
            // (printed raw, a `##[…]` or `::…` in it would run as a workflow command).
            log: (line) => log_logUntrustedLines([line])
        });
        if (run.dropped.length > 0)
            lib_core.warning(`${run.dropped.length} annotation(s) were refused by GitHub and are named in the check run summary`);
        return { checkRunId: String(run.id), checkRunUrl: run.url, fallback: false };
    }
    catch (error) {
        if (!(error instanceof ChecksForbiddenError))
            throw error;
        lib_core.warning(`Could not post the check run: ${error.message}`);
        lib_core.warning(fork
            ? 'This is a fork PR: its GITHUB_TOKEN is read-only. Gate forks with pull_request_target (safe: Receipt Gate reads receipts through the API and runs no PR code) or the workflow_run two-workflow setup.'
            : "Give the job 'permissions: checks: write' (and contents: read, pull-requests: read).");
        lib_core.warning('Annotations follow as workflow commands, the summary is in the job summary, and the step fails if the gate fails.');
        for (const annotation of report.annotations)
            annotate(annotation);
        return { checkRunId: '', checkRunUrl: '', fallback: true };
    }
}
const LEVEL = { failure: 'error', warning: 'warning', notice: 'notice' };
/** One `::error file=…,line=…::message` (or warning, notice) per annotation; the toolkit escapes it. */
function annotate(annotation) {
    lib_core[LEVEL[annotation.annotation_level]](annotation.message, {
        title: annotation.title,
        file: annotation.path,
        startLine: annotation.start_line,
        endLine: annotation.end_line
    });
}
function withDropped(report, dropped) {
    const lines = dropped.map((d) => `- ${(0,markdown_escape/* mdInline */.DP)(`${d.annotation.path}:${d.annotation.start_line} — ${d.annotation.title}`)} (${(0,markdown_escape/* mdInline */.DP)(d.reason)})`);
    const note = `\n\n### Annotations GitHub refused (${dropped.length})\n\n${lines.join('\n')}\n`;
    return (0,summary/* renderSummary */.Br)(report, summary/* SUMMARY_LIMITS */.QF.checkRun - Buffer.byteLength(note)) + note;
}
/** The job summary (same Markdown, up to 1 MiB); skipped when the runner gives no file. */
async function writeJobSummary(report) {
    if (!process.env.GITHUB_STEP_SUMMARY)
        return;
    await core.summary
        .addRaw(renderSummary(report, SUMMARY_LIMITS.jobSummary), true)
        .write();
}
/** Writes the JSON report (SPEC §8) under RUNNER_TEMP (or the OS temp dir); returns its path. */
async function writeReportFile(report, runId) {
    const dir = process.env.RUNNER_TEMP || process.env.TMPDIR || '/tmp';
    const path = join(dir, `receipt-gate-report-${runId || 'local'}.json`);
    await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
    return path;
}
/** One readable line per receipt; receipt text only inside a stop-commands block. */
function logReport(report) {
    core.info(`Receipt Gate: ${report.conclusion} on ${report.head}`);
    logUntrustedLines([
        renderTitle(report),
        ...report.receipts.map((row) => `${row.conclusion.padEnd(15)} ${row.path} — ${row.type ?? '?'} ${row.mode ?? '?'} ${row.verdict ?? '?'} — ${row.reason}`),
        ...report.missing.map((type) => `missing: no current ${type}`),
        ...report.deferred.hints.map((hint) => `deferred, not named in the PR body: ${hintItem(hint)} (${hint.why}); paste: ${hint.paste}`)
    ]);
}

// EXTERNAL MODULE: ./src/gate/evaluate.ts + 7 modules
var evaluate = __webpack_require__(2148);
// EXTERNAL MODULE: ./src/util/concurrency.ts
var concurrency = __webpack_require__(5674);
// EXTERNAL MODULE: ./src/gate/source.ts
var source = __webpack_require__(6601);
// EXTERNAL MODULE: ./src/gate/review-head.ts
var review_head = __webpack_require__(5679);
// EXTERNAL MODULE: ./src/gate/coverage.ts
var coverage = __webpack_require__(8706);
;// CONCATENATED MODULE: ./src/github/pr-commits.ts
/**
 * Review coverage over the API (issue 25.3) at a few requests: the PR's commits with
 * their parents from one pulls/commits list (≤ 3 pages), review ranges computed over
 * that graph (no request), one compare per distinct commit outside the PR a review
 * names (its merge base with the head tells which PR commits it reaches), and one
 * commit read per commit coverage must classify as code or bookkeeping.
 */




/** GitHub lists at most 250 commits of a pull request. */
const PR_COMMITS_CAP = 250;
/** A commit's files list holds at most 300 entries a page. */
const COMMIT_FILES_PAGE = 300;
const CLASSIFY_CONCURRENCY = 8;
/** The graph of a PR at the cap: the list may be cut short, and a missing commit breaks it. */
const OVER_CAP = {
    commits: null,
    note: `the PR has ${PR_COMMITS_CAP} commits or more, more than GitHub lists`
};
/**
 * The compare `from...head` (`from` a full lowercase id), or null when GitHub knows no
 * such commit, or resolved a ref of that name instead (a ref wins over a commit).
 */
async function compareFrom(octokit, base, from, head) {
    try {
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
            ...base,
            basehead: `${from}...${head}`,
            per_page: 1
        });
        return data.base_commit.sha.toLowerCase() === from ? data : null;
    }
    catch (error) {
        if (isUnknownName(error))
            return null;
        throw error;
    }
}
/** The paths a files list touches: a rename both (moving a receipt in or out of the folder changes it). */
function touchedPaths(files) {
    return files.flatMap((file) => file.previous_filename ? [file.filename, file.previous_filename] : [file.filename]);
}
/**
 * The coverage methods of the API source. `listGraph` reads the PR's commit graph
 * (default: the REST pulls/commits list); it is read once.
 */
function prCommitMethods(options, listGraph = async () => listPrCommits(options)) {
    const { octokit, owner, repo, head } = options;
    let graph;
    const readGraph = async () => (graph ??= listGraph());
    let indexed;
    const readIndex = async () => (indexed ??= readGraph().then(indexOf));
    // Per commit a review names: the PR commits it reaches (null: unknown).
    const reached = new Map();
    const reach = async (sha) => {
        if (!reached.has(sha))
            reached.set(sha, reachOf(sha));
        return reached.get(sha) ?? null;
    };
    /**
     * The PR commits `sha` reaches: over the graph when it is a PR commit; none when it is on
     * the base side (the PR's base, a parent outside the PR); else those its merge base with
     * the head reaches (one compare). Null: not a commit GitHub knows. A known limit: of a
     * criss-cross history's merge bases GitHub names one (git would take them all).
     */
    const reachOf = async (sha) => {
        const index = await readIndex();
        // Receipt text and API answers are hostile: only a full object id goes into a URL.
        if (index === null || !(0,review_head/* isFullId */.JW)(sha, head))
            return null;
        if (index.parents.has(sha))
            return (0,coverage/* reachableInPr */.$B)(index.parents, sha);
        const base = await Promise.resolve(options.baseSha).catch(() => undefined);
        if (index.baseSide.has(sha) || sha === base?.toLowerCase())
            return new Set();
        const compared = await compareFrom(octokit, { owner, repo }, sha, head);
        if (compared === null)
            return null;
        return (0,coverage/* reachableInPr */.$B)(index.parents, compared.merge_base_commit.sha.toLowerCase());
    };
    return {
        prCommitGraph: readGraph,
        async prCommits() {
            const listed = await readGraph();
            if (listed.commits === null)
                return listed;
            // Merges are left out as the git source leaves them out; paths are listed on demand.
            return {
                commits: listed.commits
                    .filter((commit) => commit.parents.length <= 1)
                    .map((commit) => ({ sha: commit.sha, paths: null }))
            };
        },
        async commitsBetween(from, to) {
            const [ahead, behind] = await Promise.all([
                reach(to.toLowerCase()),
                from === null ? new Set() : reach(from.toLowerCase())
            ]);
            if (ahead === null || behind === null)
                return null;
            return [...ahead].filter((sha) => !behind.has(sha));
        },
        // The paths each commit changed (both sides of a rename); null: not listed whole.
        async commitPaths(shas) {
            const paths = await (0,concurrency/* mapLimit */.s)(shas, CLASSIFY_CONCURRENCY, async (sha) => {
                if (!(0,review_head/* isFullId */.JW)(sha, head))
                    return null;
                const { data } = await octokit.rest.repos.getCommit({
                    owner,
                    repo,
                    ref: sha,
                    per_page: COMMIT_FILES_PAGE
                });
                const files = data.files ?? [];
                return files.length >= COMMIT_FILES_PAGE ? null : touchedPaths(files);
            });
            return new Map(shas.map((sha, i) => [sha, paths[i] ?? null]));
        }
    };
}
/** The PR's commits with their parents, or why not (more than GitHub lists). */
async function listPrCommits(options) {
    const { octokit, owner, repo, pullNumber } = options;
    const listed = await octokit.paginate(octokit.rest.pulls.listCommits, {
        owner,
        repo,
        pull_number: pullNumber,
        per_page: 100
    });
    if (listed.length >= PR_COMMITS_CAP)
        return OVER_CAP;
    return {
        commits: listed.map((commit) => ({
            sha: commit.sha.toLowerCase(),
            parents: commit.parents.map((parent) => parent.sha.toLowerCase())
        }))
    };
}
function indexOf(graph) {
    if (graph.commits === null)
        return null;
    const parents = new Map(graph.commits.map((c) => [c.sha, c.parents]));
    const outside = graph.commits.flatMap((c) => c.parents).filter((p) => !parents.has(p));
    return { parents, baseSide: new Set(outside) };
}

;// CONCATENATED MODULE: ./src/github/api-source.ts
/**
 * The receipt source over the GitHub API (Git Data, compare, pulls): what the action
 * uses when the workspace does not hold the PR head. It reads receipts as data and
 * never runs PR code, so it is safe under `pull_request_target`.
 */





/** GitHub caps the PR files list at 3,000 and a comparison's files at 300. */
const PR_FILES_CAP = 3000;
const COMPARE_FILES_CAP = 300;
const BLOB_CONCURRENCY = 8;
/** A {@link ReceiptSource} over the REST API. */
function apiSource(options) {
    const { octokit, owner, repo, head } = options;
    const base = { owner, repo };
    // One limit for every readBlobs call (the gate asks receipt by receipt, issue 7).
    const limit = (0,concurrency/* limiter */.T)(BLOB_CONCURRENCY);
    // The PR's files list, read once for the selection and the diff map alike.
    let files;
    const filesList = async () => (files ??= readFilesList(options));
    return {
        head,
        // Review coverage (issue 25.3): the PR's commit graph, ranges over it, classification.
        ...prCommitMethods(options),
        // One recursive tree of `dir` only (SPEC §2: a whole-repo recursive tree truncates on
        // large repos).
        async listTree(dir) {
            const data = await folderTree(octokit, base, head, dir);
            if (!data)
                return { entries: [], truncated: false };
            const entries = data.tree.flatMap((entry) => entry.type === 'tree'
                ? []
                : {
                    path: `${dir}/${entry.path}`,
                    type: entry.type === 'commit' ? 'commit' : 'blob',
                    mode: entry.mode ?? '100644',
                    sha: entry.sha,
                    size: entry.size ?? null
                });
            return { entries, truncated: data.truncated === true };
        },
        readBlobs: async (shas) => {
            const blobs = await Promise.all(shas.map(async (sha) => limit(async () => readBlob(octokit, base, sha))));
            return new Map(shas.map((sha, index) => [sha, blobs[index]]));
        },
        async readFile(path) {
            try {
                const { data } = await octokit.rest.repos.getContent({ ...base, path, ref: head });
                if (Array.isArray(data))
                    return (0,source/* notAFile */.$y)(path, 'dir');
                if (data.type !== 'file')
                    return (0,source/* notAFile */.$y)(path, data.type);
                // Past 1 MB GitHub sends no content (`encoding: none`): not an empty file.
                if (!('content' in data) ||
                    data.encoding !== 'base64' ||
                    data.size > source/* FILE_READ_CAP */.bG)
                    return (0,source/* overFileCap */.vu)(path);
                return Buffer.from(data.content, 'base64');
            }
            catch (error) {
                if (error instanceof GitHubError && error.status === 404)
                    return null;
                throw error;
            }
        },
        async changedPaths() {
            const listed = await filesList();
            return listed.files === null
                ? { paths: null, note: listed.note }
                : { paths: touchedPaths(listed.files) };
        },
        async changedFiles() {
            const listed = await filesList();
            if (listed.files === null)
                return listed;
            // GitHub leaves `patch` out of a large or binary file's entry: unknown, not empty.
            return {
                files: listed.files.map((file) => ({
                    path: file.filename,
                    ...(file.status === 'renamed' && file.previous_filename
                        ? { previousPath: file.previous_filename }
                        : {}),
                    patch: file.patch ?? null
                }))
            };
        },
        // One compare call per reviewed SHA: `R...H`.
        async ancestry(reviewed) {
            // Receipt text is hostile: only a full object id goes into the URL (the gate checked).
            if (!(0,review_head/* isFullId */.JW)(reviewed, head))
                return { kind: 'unknown-commit' };
            if (reviewed === head.toLowerCase())
                return { kind: 'identical' };
            const data = await compareFrom(octokit, base, reviewed, head);
            if (data === null)
                return { kind: 'unknown-commit' };
            if (data.status === 'identical')
                return { kind: 'identical' };
            if (data.status !== 'ahead')
                return { kind: 'not-ancestor' };
            const files = data.files ?? [];
            if (files.length >= COMPARE_FILES_CAP)
                return { kind: 'too-large', commits: data.ahead_by };
            return { kind: 'ahead', commits: data.ahead_by, changedPaths: touchedPaths(files) };
        },
        // The newest commit that changed each path: one list-commits call a receipt (its
        // files come from the compare).
        async receiptCommits(receipts) {
            const found = await (0,concurrency/* mapLimit */.s)(receipts, BLOB_CONCURRENCY, async ({ path }) => {
                const { data } = await octokit.rest.repos.listCommits({
                    ...base,
                    sha: head,
                    path,
                    per_page: 1
                });
                const [commit] = data;
                if (!commit)
                    return null;
                const parent = commit.parents[0]?.sha ?? null;
                return { sha: commit.sha, parent, changedPaths: null };
            });
            return new Map(receipts.map(({ path }, i) => [path, found[i] ?? null]));
        }
    };
}
async function readFilesList(options) {
    const { octokit, owner, repo } = options;
    // The first page is asked for beside the PR read, whose file count decides whether
    // the list is used at all (one page is the cost of that guess on a PR over the cap).
    const firstPage = octokit.rest.pulls.listFiles({
        owner,
        repo,
        pull_number: options.pullNumber,
        per_page: 100
    });
    firstPage.catch(() => undefined); // awaited below, unless the count says otherwise
    const changedFiles = await options.changedFiles;
    if (changedFiles > PR_FILES_CAP) {
        return {
            files: null,
            note: `the PR changes ${changedFiles} files, more than GitHub lists (${PR_FILES_CAP})`
        };
    }
    return { files: await allPages(octokit, await firstPage) };
}
/** Every page of a list from its first: the `last` link's pages 8 at a time, else by `next`. */
async function allPages(octokit, first) {
    const link = (page, rel) => new RegExp(`<([^>]+)>;\\s*rel="${rel}"`).exec(page.headers.link ?? '')?.[1];
    const last = link(first, 'last');
    const count = Number(last && URL.canParse(last) && new URL(last).searchParams.get('page'));
    // GitHub's lists stop at 3,000 items (30 pages): a larger count is not believed.
    if (last && Number.isInteger(count) && count > 1 && count <= 30) {
        const pages = Array.from({ length: count - 1 }, (_, i) => i + 2);
        const later = await (0,concurrency/* mapLimit */.s)(pages, 8, async (page) => {
            const url = new URL(last);
            url.searchParams.set('page', String(page));
            return (await octokit.request(`GET ${url.href}`)).data;
        });
        return [...first.data, ...later.flat()];
    }
    const items = [...first.data];
    for (let page = first;;) {
        const next = link(page, 'next');
        if (!next)
            return items;
        page = await octokit.request(`GET ${next}`);
        items.push(...page.data);
    }
}
/**
 * The folder's recursive tree (null: no such folder). In one request first (issue 7):
 * GitHub resolves `<commit>:<path>` as `tree_sha`, though documented for SHAs and refs
 * only; a refusal (404, 422: also a missing folder's answer) sends it down a walk through
 * non-recursive trees, which tells the two apart.
 */
async function folderTree(octokit, base, head, dir) {
    const getTree = async (tree_sha, recursive) => (await octokit.rest.git.getTree({ ...base, tree_sha, recursive })).data;
    // A `.` segment would mean something else to git than to the walk.
    if (!dir.split('/').includes('.')) {
        try {
            return await getTree(`${head}:${dir}`, '1');
        }
        catch (error) {
            if (!isUnknownName(error))
                throw error;
        }
    }
    let sha = head;
    for (const segment of dir.split('/')) {
        const { tree } = await getTree(sha);
        const next = tree.find((entry) => entry.path === segment && entry.type === 'tree');
        if (!next?.sha)
            return null;
        sha = next.sha;
    }
    return getTree(sha, '1');
}
async function readBlob(octokit, base, sha) {
    try {
        // The JSON form (base64): fetch would decode a raw answer typed as text, replacing
        // bytes that are not UTF-8, where the gate must see a receipt's bytes as they are.
        const { data } = await octokit.rest.git.getBlob({ ...base, file_sha: sha });
        return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8');
    }
    catch (error) {
        if (error instanceof GitHubError)
            return error.message;
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/github/pulls.ts
/** `pulls.get`: the body is read fresh, so `edited` events see the new body. */
async function getPullRequest(octokit, owner, repo, number) {
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
    return {
        number: data.number,
        headSha: data.head.sha,
        headRef: data.head.ref,
        baseSha: data.base.sha,
        body: data.body ?? '',
        changedFiles: data.changed_files,
        fork: data.head.repo?.full_name !== data.base.repo.full_name
    };
}
/**
 * The other open PRs whose head is `head` (`commits/{sha}/pulls`, one page of 100 unless
 * more PRs hold the commit), with their bodies; `number` is the PR being judged.
 */
async function pullsSharingHead(octokit, owner, repo, head, number) {
    const pulls = await octokit.paginate(octokit.rest.repos.listPullRequestsAssociatedWithCommit, { owner, repo, commit_sha: head, per_page: 100 });
    return sharingOnly(pulls.map((pull) => ({
        number: pull.number,
        open: pull.state === 'open',
        head: pull.head.sha,
        body: pull.body
    })), head, number);
}
/** Of the PRs holding a commit, the other open ones whose head it is; an empty body is "". */
function sharingOnly(pulls, head, number) {
    return pulls
        .filter((pull) => pull.open &&
        pull.number !== number &&
        pull.head.toLowerCase() === head.toLowerCase())
        .map((pull) => ({ number: pull.number, body: pull.body ?? '' }));
}
/**
 * Finds the open PR whose head is `headSha`: `workflow_run.pull_requests` is empty for
 * fork PRs, so the PR is looked up among open PRs (filtered by head branch when known).
 */
async function findPullRequestByHead(octokit, owner, repo, head) {
    const filter = head.branch && head.owner ? { head: `${head.owner}:${head.branch}` } : {};
    const pulls = await octokit.paginate(octokit.rest.pulls.list, {
        owner,
        repo,
        state: 'open',
        per_page: 100,
        ...filter
    });
    return pulls.find((pull) => pull.head.sha === head.sha)?.number ?? null;
}

// EXTERNAL MODULE: ./src/receipts/json.ts
var json = __webpack_require__(5664);
;// CONCATENATED MODULE: ./src/action/context.ts
/** The run's environment, read once: event, repository, run ids, API URL, workspace. */


/**
 * Reads `GITHUB_*` variables. The event payload is the one `@actions/github` parsed when it
 * loaded (the client imports it): an absent or non-object one is empty.
 */
function readRunContext() {
    const env = process.env;
    const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/');
    return {
        eventName: env.GITHUB_EVENT_NAME ?? '',
        payload: isJsonObject(context.payload) ? context.payload : {},
        owner,
        repo,
        runId: env.GITHUB_RUN_ID ?? '',
        runAttempt: env.GITHUB_RUN_ATTEMPT ?? '1',
        apiUrl: env.GITHUB_API_URL || undefined,
        workspace: env.GITHUB_WORKSPACE || undefined,
        timeScale: timeScaleFrom(env)
    };
}
/** `RECEIPT_GATE_TIME_SCALE` (default 1): tests shrink every wait and timeout with it. */
function timeScaleFrom(env) {
    const scale = Number(env.RECEIPT_GATE_TIME_SCALE);
    return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

// EXTERNAL MODULE: ./src/source/git.ts + 1 modules
var git = __webpack_require__(1927);
// EXTERNAL MODULE: ./src/cli/args.ts
var args = __webpack_require__(8000);
;// CONCATENATED MODULE: ./src/cli/pr-source.ts
/**
 * `receipt-gate check --pr N`: the gate on a pull request through the GitHub API — the
 * action's own pieces (the PR read fresh, its body for the audit, the receipts at its
 * head through the API source, the same gate), so the CLI's report is the action's.
 * A check run is posted only when asked (`--post`), as the action posts it.
 */









// GitHub's own rules for owner and repository names (a slug is never a path).
const SLUG = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;
/**
 * Where `--pr N` reads: the slug from `--repo-slug`, `GITHUB_REPOSITORY` or the origin
 * remote; the token from `GITHUB_TOKEN` / `GH_TOKEN`; the API from `GITHUB_API_URL`.
 */
async function prTarget(pr, slugFlag, repoDir, env) {
    const number = (0,args/* prNumber */.K9)(pr, '--pr');
    const slug = slugFlag ?? (env.GITHUB_REPOSITORY || (await originSlug(repoDir)));
    if (slug === null)
        throw new args/* CliError */.z1('no repository to read the pull request from: pass --repo-slug OWNER/REPO (or set GITHUB_REPOSITORY)');
    const match = SLUG.exec(slug);
    if (!match || slug.endsWith('.git') || /^\.+$/.test(match[2] ?? ''))
        throw new args/* CliError */.z1(`${slugFlag !== undefined ? '--repo-slug' : 'the repository'} must be OWNER/REPO (got ${JSON.stringify((0,safe_text/* terminalLine */.tL)(slug))})`);
    const token = env.GITHUB_TOKEN || env.GH_TOKEN;
    if (!token)
        throw new args/* CliError */.z1(`reading pull request #${number} needs a token: set GITHUB_TOKEN or GH_TOKEN`);
    const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
    const timeScale = timeScaleFrom(env);
    // Links go to GITHUB_SERVER_URL as the action reads it, else the server of a GitHub
    // Enterprise Server API (`https://HOST/api/v3`), else github.com.
    const server = env.GITHUB_SERVER_URL
        ? env.GITHUB_SERVER_URL.replace(/\/+$/, '')
        : (/^(https?:\/\/[^/]+)\/api\/v3$/.exec(apiUrl)?.[1] ?? 'https://github.com');
    return {
        owner: match[1],
        repo: match[2],
        number,
        octokit: createClient({ token, baseUrl: apiUrl, timeScale }),
        repositoryUrl: `${server}/${match[1]}/${match[2]}`,
        timeScale
    };
}
/** OWNER/REPO of the `origin` remote when it is a GitHub-style URL, else null. */
async function originSlug(repoDir) {
    const url = await (0,git/* git */.$Y)(repoDir, ['config', '--get', 'remote.origin.url']).then((out) => out.stdout.trim(), () => '');
    // https://host/OWNER/REPO(.git), git@host:OWNER/REPO(.git), ssh://git@host/OWNER/REPO.
    const match = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url);
    return match ? `${match[1]}/${match[2]}` : null;
}
/**
 * Reads the PR and runs the gate on it as the action does (`expectHead`: land's SHA),
 * then posts the check run named `checkName` on its head, when one is named.
 */
async function checkPullRequest(target, options, expectHead, checkName) {
    const { owner, repo, number, octokit } = target;
    const pull = await api(target, 'read', async () => getPullRequest(octokit, owner, repo, number));
    // The land step judged one head: a PR that moved since is a different question.
    if (expectHead !== null && pull.headSha.toLowerCase() !== expectHead.toLowerCase())
        throw new args/* CliError */.z1(`pull request #${number} moved: its head is ${pull.headSha}, FLOW_HEAD_SHA is ${expectHead}`);
    // The check run is the commit's: every other open PR on that head must hold too.
    const sharing = await api(target, 'read', async () => pullsSharingHead(octokit, owner, repo, pull.headSha, number));
    const source = apiSource({
        octokit,
        owner,
        repo,
        head: pull.headSha,
        pullNumber: number,
        changedFiles: pull.changedFiles,
        baseSha: pull.baseSha
    });
    const report = await api(target, 'gate', async () => (0,evaluate/* evaluate */._)({
        source,
        options,
        body: pull.body,
        sharing,
        branch: pull.headRef,
        repositoryUrl: target.repositoryUrl
    }));
    if (checkName === null)
        return { report, published: null };
    const published = await api(target, 'post a check run on', async () => publishReport(report, {
        octokit,
        owner,
        repo,
        checkName,
        headSha: pull.headSha,
        externalId: `cli-${pull.headSha}`,
        fork: pull.fork,
        timeScale: target.timeScale
    }));
    return { report, published };
}
const HINTS = {
    401: ' (the token was refused: check GITHUB_TOKEN / GH_TOKEN)',
    403: ' (the token may lack access to this repository)',
    404: ' (no such pull request or repository, or the token cannot see it)'
};
/** An API failure as one clear line (exit 2): what was asked, and GitHub's answer. */
async function api(target, what, fn) {
    try {
        return await fn();
    }
    catch (error) {
        if (!(error instanceof GitHubError))
            throw error;
        const where = `pull request #${target.number} of ${target.owner}/${target.repo}`;
        const hint = HINTS[error.status ?? 0] ?? '';
        // GitHub's answer is untrusted text: one line, controls made visible.
        throw new args/* CliError */.z1(`cannot ${what} ${where}: ${(0,safe_text/* terminalLine */.tL)(error.message.replace(/^[A-Z]+ \S+: /, ''))}${hint}`);
    }
}


/***/ })

};
