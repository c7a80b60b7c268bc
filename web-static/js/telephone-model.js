// The telephone game's client state (docs/PROTOCOL.md 12.5, docs/CLIENT.md "Telephone
// mode"): pure functions from server messages to a plain object, no DOM, so the step,
// progress and album logic is unit-tested with messages alone (tests/browser/unit/
// telephone.test.mjs). store.js keeps the object in `state.phone`; telephone-view.js
// draws it. Every function returns a new object: a view never sees half an update.

export const PHONE_KINDS = Object.freeze(['write', 'draw', 'describe']);
export const PHONE_TEXT_MAX = 100; // the server's limit for a written line (12.5)

export function initialPhone() {
  return {
    step: null, // the current step's number (0-based), null outside a game
    steps: 0, // how many steps the game has (= players seated at its start)
    kind: null, // 'write' | 'draw' | 'describe'
    prompt: null, // the text to draw (draw steps; '' when the writer left it empty)
    drawing: null, // {id, png} to describe, null when that drawing was left empty
    submitted: false, // this page sent (or the server says it has) this step's answer
    editing: false, // a submitted text reopened to change it (a resubmit replaces it)
    myText: '', // what this page last submitted in the step (to reopen it)
    done: [], // ids who submitted this step, in seat order (phoneProgress)
    progressStep: null, // the step `done` is of (a watcher learns the steps only from it)
    album: null, // [{owner, entries: [{kind, by, text?, drawing?}]}] once the album comes
    reveal: { chain: 0, entry: -1 }, // how far the host has shown the album
  };
}

const str = (v) => (typeof v === 'string' ? v : '');

/** A drawing reference from the server, or null (a drawing left empty has none). */
function drawingRef(d) {
  if (!d || typeof d !== 'object' || typeof d.png !== 'string' || !d.png) return null;
  return { id: str(d.id), png: d.png, timelapse: str(d.timelapse) || null };
}

/**
 * `phoneStep`: a new step starts, or the same step is re-sent to a returning player
 * (then `submitted` says whether its answer is in). The progress is kept for the same
 * step (a reload keeps the avatars' check marks that came before it).
 */
export function applyStep(phone, msg) {
  const step = Number.isInteger(msg?.step) ? msg.step : 0;
  const same = phone.step === step;
  const kind = PHONE_KINDS.includes(msg?.kind) ? msg.kind : 'write';
  return {
    ...phone,
    step,
    steps: Number.isInteger(msg?.steps) && msg.steps > 0 ? msg.steps : phone.steps,
    kind,
    prompt: kind === 'draw' ? str(msg.prompt) : null,
    drawing: kind === 'describe' ? drawingRef(msg.drawing) : null,
    submitted: typeof msg?.submitted === 'boolean' ? msg.submitted : same && phone.submitted,
    editing: false,
    myText: same ? phone.myText : '',
    done: same ? phone.done : [],
    progressStep: step,
    album: null,
    reveal: { chain: 0, entry: -1 },
  };
}

/**
 * The kind of step K (PROTOCOL 12.5: step 0 is `write`, then `draw` and `describe`
 * alternate), for a page that is told the step's number but not its kind (a watcher).
 */
export function kindOfStep(step) {
  if (!Number.isInteger(step) || step < 0) return null;
  if (step === 0) return 'write';
  return step % 2 === 1 ? 'draw' : 'describe';
}

/** Whether the step `msg.step` is a new one for this page (a draw step then starts a blank board). */
export function isNewStep(phone, msg) {
  return phone.step !== (Number.isInteger(msg?.step) ? msg.step : 0);
}

/**
 * `phoneProgress`: who has submitted (only for the step shown; a late one is ignored).
 * A watcher (a spectator, a later joiner: no step of its own) follows every step's.
 */
export function applyProgress(phone, msg) {
  if (!Number.isInteger(msg?.step) || (phone.step !== null && msg.step !== phone.step)) return phone;
  const done = Array.isArray(msg.done) ? msg.done.map(String) : [];
  return { ...phone, done, progressStep: msg.step };
}

/**
 * The text a player may send: trimmed, runs of spaces and control characters as one
 * space (what the server keeps), or null when empty or too long.
 */
export function cleanPhoneText(text) {
  // eslint-disable-next-line no-control-regex
  const t = String(text ?? '').replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  const n = [...t].length;
  return n >= 1 && n <= PHONE_TEXT_MAX ? t : null;
}

/** This page sent its answer (`text` for write/describe, none for a drawing). */
export function markSubmitted(phone, text = '') {
  return { ...phone, submitted: true, editing: false, myText: text || phone.myText };
}

/** "Change my answer": the form again, with the text sent (the next Done replaces it). */
export function reopen(phone) {
  if (!phone.submitted || phone.kind === 'draw') return phone;
  return { ...phone, editing: true };
}

/** What the step screen shows: the form ('answer'), or the waiting state ('waiting'). */
export function stepScreen(phone) {
  if (phone.step === null) return 'none';
  if (phone.kind === 'draw') return phone.submitted ? 'drawDone' : 'draw';
  return phone.submitted && !phone.editing ? 'waiting' : 'answer';
}

function entry(e) {
  if (!e || typeof e !== 'object') return null;
  if (e.kind === 'drawing') return { kind: 'drawing', by: str(e.by), drawing: drawingRef(e.drawing) };
  return { kind: 'text', by: str(e.by), text: str(e.text) };
}

/** `album`: every chain with its entries in step order (the reveal starts again at chain 0's title). */
export function applyAlbum(phone, msg) {
  const chains = (Array.isArray(msg?.chains) ? msg.chains : [])
    .filter((c) => c && typeof c === 'object')
    .map((c) => ({ owner: str(c.owner), entries: (Array.isArray(c.entries) ? c.entries : []).map(entry).filter(Boolean) }));
  return { ...phone, step: null, kind: null, prompt: null, drawing: null, submitted: false, editing: false, done: [], progressStep: null, album: chains, reveal: { chain: 0, entry: -1 } };
}

/** `albumReveal`: chain C shown up to entry E (−1: its title card). */
export function applyReveal(phone, msg) {
  const chain = Number.isInteger(msg?.chain) && msg.chain >= 0 ? msg.chain : 0;
  const entryNo = Number.isInteger(msg?.entry) && msg.entry >= -1 ? msg.entry : -1;
  return { ...phone, reveal: { chain, entry: entryNo } };
}

/**
 * What the album shows now: {chain (its number), count (chains), owner, entries (those
 * revealed, oldest first), newest (index of the entry just revealed, −1 for the title
 * card), last (the host's next click ends the album)}; null before the album.
 */
export function albumView(phone) {
  const chains = phone.album;
  if (!Array.isArray(chains) || chains.length === 0) return null;
  const c = Math.min(phone.reveal.chain, chains.length - 1);
  const chain = chains[c];
  const upTo = Math.min(phone.reveal.entry, chain.entries.length - 1);
  return {
    chain: c,
    count: chains.length,
    owner: chain.owner,
    entries: chain.entries.slice(0, upTo + 1),
    newest: upTo,
    last: c === chains.length - 1 && upTo >= chain.entries.length - 1,
  };
}

/**
 * The progress line's numbers: {done, total} (total = the game's players = its steps; a
 * watcher, who is not told the steps, counts the seated players, `seated`).
 */
export function progressCount(phone, seated = 0) {
  return { done: phone.done.length, total: Math.max(phone.steps || seated, phone.done.length) };
}
