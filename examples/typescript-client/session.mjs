// A Control Plane session driven from Node.js with @temporalio/client, using only the documented
// client contract (README "Client contract (draft)", docs/client-contract.md): no Java classes,
// no knowledge of the plane's internals. Plain JavaScript (an ES module with JSDoc types), so it
// runs with Node 20 and nothing to build.
//
// It starts a session, sends two turns (printing each reply as it is written, from the turn's
// events), queries `state`, ends the session, and shows the three
// refusals a client meets most: a malformed turn, a bad start, and a turn after the end.
// Exit code: 0 when everything behaved as the contract says, 1 when something did not (the line
// starting "UNEXPECTED" says what), 2 when the service could not be reached.

import { randomBytes, randomUUID } from 'node:crypto';
import {
  ApplicationFailure, Client, Connection, WorkflowFailedError, WorkflowUpdateFailedError,
} from '@temporalio/client';

const address = process.env.TEMPORAL_ADDRESS || '127.0.0.1:7233';
const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
const taskQueue = process.env.CP_TASK_QUEUE || 'control-plane';
const agentClass = 'ADMIN';
const turns = process.argv.length > 2 ? process.argv.slice(2) : ['hello', 'what packages are installed?'];

/**
 * The start input of the workflow type `SessionWorkflow`.
 * @typedef {{ session_id: string, agent_class?: string }} StartInput
 */
/**
 * details[0] of a `turn_refused` or `start_refused` failure.
 * @typedef {{ code: string, field?: string, reason?: string }} Refusal
 */
/**
 * The fields of a turn's result this program prints (the result has more).
 * @typedef {{ response: string, outcome: string, turn: number, error_code?: string }} TurnResult
 */
/**
 * The fields of the `state` Query this program prints.
 * @typedef {{ turns: number, tokens_used: number, tokens_remaining: number, ended: boolean, end_reason?: string }} SessionState
 */

/**
 * One event of a live turn (the turn workflow's Query `events`), and a page of them.
 * @typedef {{ seq: number, type: string, step?: string, text?: string, keep?: number, tool?: string, outcome?: string }} TurnEvent
 * @typedef {{ events: TurnEvent[], next_seq: number, done: boolean }} TurnEventPage
 */

/** The id of a session's turn workflow: `<session_id>/turn-<nnnn>`. */
function turnWorkflowId(sessionId, turn) {
  return `${sessionId}/turn-${String(turn).padStart(4, '0')}`;
}

/**
 * Follows turn `turn`'s events while `update` (its Update `turn`) runs: the Query `events` from
 * the next sequence number every 50 ms, the reply's text printed as it arrives, a `retracted`
 * cutting it back to `keep` characters; reads on until the `done` event once the Update answered.
 * Returns the reply assembled from the stream. A reconnecting client would resume from the last
 * sequence number it saw + 1.
 * @param {import('@temporalio/client').Client} client
 * @param {string} sessionId
 * @param {number} turn
 * @param {Promise<unknown>} update
 */
async function followTurn(client, sessionId, turn, update) {
  const turnHandle = client.workflow.getHandle(turnWorkflowId(sessionId, turn));
  let next = 1;
  let reply = '';
  let done = false;
  let answered = false;
  update.then(() => { answered = true; }, () => { answered = true; });
  for (let polls = 0; !done && polls < 2000; polls++) {
    /** @type {TurnEventPage | undefined} */
    let page;
    try {
      page = await turnHandle.query('events', next);
    } catch (err) {
      page = undefined; // the turn's workflow does not exist yet
    }
    for (const e of page?.events ?? []) {
      if (e.seq !== next) continue;
      next = e.seq + 1;
      if (e.type === 'text_delta') {
        reply += e.text;
        process.stdout.write(e.text);
      } else if (e.type === 'retracted') {
        reply = reply.slice(0, e.keep);
        process.stdout.write(`\n[withdrawn; continuing from ${e.keep} characters]\n${reply}`);
      } else if (e.type === 'done') {
        done = true;
      }
    }
    if (!done) await new Promise((r) => setTimeout(r, answered ? 20 : 50));
  }
  process.stdout.write('\n');
  return reply;
}

/** A session id as the contract wants it: `SES-` and 8 hex digits; it is also the workflow id. */
function newSessionId() {
  return 'SES-' + randomBytes(4).toString('hex');
}

/**
 * The innermost ApplicationFailure in an error's cause chain, or undefined.
 * @param {unknown} err
 * @returns {ApplicationFailure | undefined}
 */
function applicationFailure(err) {
  let found;
  for (let e = err; e; e = e.cause) {
    if (e instanceof ApplicationFailure) found = e;
  }
  return found;
}

/**
 * One line for a refusal: type, code, field, message.
 * @param {ApplicationFailure} af
 */
function describe(af) {
  /** @type {Refusal} */
  const r = (af.details && af.details[0]) || { code: '?' };
  const field = r.field ? ` field=${r.field}` : '';
  const reason = r.reason ? ` reason=${r.reason}` : '';
  return `${af.type} ${r.code}${field}${reason}: ${af.message}`;
}

let problems = 0;
/** @param {string} what */
function unexpected(what) {
  problems++;
  console.log(`UNEXPECTED: ${what}`);
}

/**
 * @param {SessionState} s
 */
function stateLine(s) {
  return `turns=${s.turns} tokens_used=${s.tokens_used} tokens_remaining=${s.tokens_remaining} ended=${s.ended}`
    + (s.end_reason ? ` end_reason=${s.end_reason}` : '');
}

async function main() {
  let connection;
  try {
    connection = await Connection.connect({ address, connectTimeout: '10s' });
  } catch (err) {
    console.error(`cannot reach the Temporal service at ${address} (TEMPORAL_ADDRESS): ${err.message}`);
    return 2;
  }
  try {
    const client = new Client({ connection, namespace });
    const sessionId = newSessionId();

    // Start: workflow type SessionWorkflow, workflow id = session_id.
    const handle = await client.workflow.start('SessionWorkflow', {
      taskQueue,
      workflowId: sessionId,
      args: [/** @type {StartInput} */ ({ session_id: sessionId, agent_class: agentClass })],
    });
    console.log(`started ${sessionId} (agent ${agentClass}, task queue ${taskQueue}, ${address})`);

    // Turns: Update `turn` with {"text": ...}, answered with the turn's result. Each turn gets its
    // own update id; a client that retries a turn (after a lost connection) reuses that id, and
    // the service runs the turn once.
    // While the Update waits, the turn's events (Query `events` on its workflow) show the reply as
    // it is written; the result stays the Update's answer, never the stream.
    let turnNumber = 0;
    for (const text of turns) {
      turnNumber++;
      const update = handle.executeUpdate('turn', { args: [{ text }], updateId: randomUUID() });
      process.stdout.write(`streamed ${turnNumber}: `);
      const streamed = await followTurn(client, sessionId, turnNumber, update);
      /** @type {TurnResult} */
      const r = await update;
      console.log(`turn ${r.turn} [${r.outcome}${r.error_code ? ' ' + r.error_code : ''}] > ${text}`);
      console.log(`reply: ${r.response}`);
      console.log(`streamed reply equals the result: ${streamed === r.response}`);
      if (streamed !== r.response) unexpected(`turn ${r.turn}: the streamed reply differs from the result`);
    }

    // State: Query `state`.
    /** @type {SessionState} */
    const state = await handle.query('state');
    console.log(`state: ${stateLine(state)}`);
    if (state.turns !== turns.length || state.ended) unexpected(`state after ${turns.length} turns: ${stateLine(state)}`);

    // Refusal (a): a turn whose argument is not {"text": string}.
    try {
      await handle.executeUpdate('turn', { args: [{ message: 'hi' }] });
      unexpected('a turn with {"message": "hi"} was accepted');
    } catch (err) {
      const af = applicationFailure(err);
      if (!(err instanceof WorkflowUpdateFailedError) || !af) throw err;
      console.log(`refused (turn with {"message": "hi"}): ${describe(af)}`);
      if (af.type !== 'turn_refused' || af.details?.[0]?.code !== 'unknown_field') unexpected('not turn_refused/unknown_field');
    }

    // End: Update `end`, answered with the session summary.
    const summary = await handle.executeUpdate('end');
    console.log(`ended ${sessionId}: end_reason=${summary.end_reason} turns=${summary.turns}`
      + ` tokens_used=${summary.tokens_used} ended_at=${summary.ended_at}`);

    // Refusal (b): a start without agent_class. The start call succeeds; the workflow fails at
    // once with start_refused, which its result shows.
    const badId = newSessionId();
    const bad = await client.workflow.start('SessionWorkflow', {
      taskQueue,
      workflowId: badId,
      args: [/** @type {StartInput} */ ({ session_id: badId })],
    });
    try {
      await bad.result();
      unexpected(`the session ${badId} started without agent_class`);
    } catch (err) {
      const af = applicationFailure(err);
      if (!(err instanceof WorkflowFailedError) || !af) throw err;
      console.log(`refused (start of ${badId} without agent_class): ${describe(af)}`);
      const status = (await bad.describe()).status.name;
      console.log(`workflow ${badId}: ${status}`);
      if (status !== 'FAILED') unexpected(`the refused start's workflow is ${status}, not FAILED`);
      if (af.type !== 'start_refused' || af.details?.[0]?.code !== 'missing_field') unexpected('not start_refused/missing_field');
    }

    // Refusal (c): a turn after the end. An ended session is a closed workflow, so the service
    // refuses the Update itself (or, while SESSION_END is still being written, the session does,
    // turn_refused/session_ended). The check: the workflow is COMPLETED and the state Query, which
    // still answers on a closed workflow, says ended: true.
    try {
      await handle.executeUpdate('turn', { args: [{ text: 'one more?' }] });
      unexpected('a turn after the end was accepted');
    } catch (err) {
      const af = applicationFailure(err);
      const grpc = err.code ?? err.cause?.code;
      const how = af ? describe(af)
        : `the service refused the Update (${err.name}${grpc !== undefined ? ', gRPC status ' + grpc : ''}): ${err.message}`;
      await handle.result(); // the session summary; waits if the session was still closing
      /** @type {SessionState} */
      const after = await handle.query('state');
      const status = (await handle.describe()).status.name;
      console.log(`refused (turn after end): ${how}`);
      console.log(`workflow ${sessionId}: ${status}`);
      console.log(`state: ${stateLine(after)}`);
      if (status !== 'COMPLETED') unexpected(`the ended session's workflow is ${status}, not COMPLETED`);
      if (af && (af.type !== 'turn_refused' || af.details?.[0]?.code !== 'session_ended')) unexpected('not turn_refused/session_ended');
      if (!after.ended) unexpected('the state Query does not say ended: true');
    }
  } finally {
    await connection.close();
  }
  console.log(problems === 0 ? 'done: the session behaved as the contract says' : `done: ${problems} unexpected result(s)`);
  return problems === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`failed: ${err.stack || err}`);
    process.exit(1);
  },
);
