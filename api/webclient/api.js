// The public API of the Keltis service, as a third-party client uses it.
import {currentLanguage, hasKey, t} from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const STATUS_WORDS = [0, 400, 401, 403, 404, 409, 413, 422, 429, 503];

// The error as words. English: the server's own message (the most precise), else what its
// status means. Another language: the catalog's words for the error's code (`errors.<code>`),
// else what the status means with the server's English message.
export function errorWords(status, error) {
  const rule = error && error.rule ? t("errors.rule", {rule: error.rule}) : "";
  if (currentLanguage() !== "en" && error && error.code && hasKey("errors." + error.code)) {
    return t("errors." + error.code) + rule;
  }
  const base = STATUS_WORDS.includes(status) ? t("status.http" + status) : t("status.httpOther", {status});
  // A message that already says what the status means is not prefixed again.
  const said = error && error.message && error.message.toLowerCase().startsWith(base.toLowerCase());
  if (said) return error.message + rule;
  if (error && error.message) return base + ": " + error.message + rule;
  return base + ".";
}

export async function api(method, path, {token, body, headers} = {}) {
  const sent = {Accept: "application/json", ...(headers || {})};
  if (token) sent.Authorization = "Bearer " + token;
  const init = {method, headers: sent, cache: "no-store"};
  if (body !== undefined) {
    sent["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (problem) {
    throw new ApiError(0, "network", errorWords(0, {code: "network", message: String(problem.message || problem)}));
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_" + response.status, errorWords(response.status, error));
  }
  return data;
}

export function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Seat tokens live in this browser's local storage, so a reload resumes the game.
const PREFIX = "keltis.seat.";
export const seats = {
  get(gameId) {
    try { return JSON.parse(localStorage.getItem(PREFIX + gameId) || "null"); } catch (_) { return null; }
  },
  set(gameId, seat) { localStorage.setItem(PREFIX + gameId, JSON.stringify(seat)); },
  forget(gameId) { localStorage.removeItem(PREFIX + gameId); },
  // After an account's key is replaced, the seats it played with the old key use the new.
  retoken(oldToken, newToken) {
    for (const name of Object.keys(localStorage).filter((k) => k.startsWith(PREFIX))) {
      const seat = seats.get(name.slice(PREFIX.length));
      if (seat && seat.token === oldToken) localStorage.setItem(name, JSON.stringify({...seat, token: newToken}));
    }
  },
};

// The signed-in account ({name, key}) lives in local storage too: its key plays its seats
// (a game token and an account key resolve to a seat the same way) from any browser. Signed
// in by password, `key` is the session's token (taken wherever the key is) and `session`
// the session's id.
const ACCOUNT = "keltis.account";
export const account = {
  get() {
    try { return JSON.parse(localStorage.getItem(ACCOUNT) || "null"); } catch (_) { return null; }
  },
  set(name, key, session) { localStorage.setItem(ACCOUNT, JSON.stringify(session ? {name, key, session} : {name, key})); },
  forget() { localStorage.removeItem(ACCOUNT); },
  // Forget the account only while it still holds `key`: a 401 for a request sent with a key
  // this browser has replaced since (a request in flight while "Replace my key" answered)
  // says nothing about the new key. True when it forgot.
  forgetIfStill(key) {
    const held = this.get();
    if (!held || held.key !== key) return false;
    this.forget();
    return true;
  },
};

// One page of a list; `cursor` is whatever the previous page's next_cursor was.
export async function listGames(params, cursor) {
  const query = new URLSearchParams(params);
  if (cursor !== undefined && cursor !== null) query.set("cursor", String(cursor));
  const page = await api("GET", "/v1/games?" + query.toString());
  return {games: page.games || [], next: page.next_cursor ?? null};
}

// Every stream ends when its page goes into the back-forward cache: a cached page's open
// streams would keep holding the browser's connections (six per host), and the page in
// front would wait for one (Play now never heard its game). Their followers reconnect as
// after any drop once the page is shown again.
const openStreams = new Set();
addEventListener("pagehide", (event) => {
  if (event.persisted) for (const stream of openStreams) stream.abort();
});

// An NDJSON stream's lines, a batch (a list of objects) per chunk read; blank lines (the
// keep-alives) are skipped. Throws when the answer is not a 2xx stream.
export async function* ndjsonBatches(path, {headers = {}, signal} = {}) {
  const stream = new AbortController();
  const relay = () => stream.abort();
  if (signal) signal.aborted ? relay() : signal.addEventListener("abort", relay);
  openStreams.add(stream);
  try {
    const response = await fetch(path, {headers: {Accept: "application/x-ndjson", ...headers}, signal: stream.signal, cache: "no-store"});
    if (!response.ok || !response.body) throw new Error("the stream answered " + response.status);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, {stream: true});
      const lines = buffer.split("\n");
      buffer = lines.pop();
      yield lines.filter((line) => line.trim()).map((line) => JSON.parse(line));
    }
  } finally {
    openStreams.delete(stream);
    if (signal) signal.removeEventListener("abort", relay);
    stream.abort();  // a consumer that stopped reading early closes the connection too
  }
}

// Follow a game's events: the NDJSON stream, else long polls. Calls onEvents(list) per
// batch; returns when the game ended or `signal` aborted.
export async function follow(gameId, token, after, onEvents, signal) {
  let version = after;
  const headers = token ? {Authorization: "Bearer " + token} : {};
  let failures = 0;
  while (!signal.aborted) {
    try {
      const path = "/v1/games/" + encodeURIComponent(gameId) + "/stream?after=" + version;
      for await (const events of ndjsonBatches(path, {headers, signal})) {
        if (events.length) {
          version = events[events.length - 1].version;
          failures = 0;
          onEvents(events);
        }
      }
      const state = await api("GET", "/v1/games/" + encodeURIComponent(gameId) + "/events?after=" + version, {token});
      if (state.events.length) { version = state.events[state.events.length - 1].version; onEvents(state.events); }
      if (["finished", "cancelled", "expired"].includes(state.status)) return;
    } catch (problem) {
      if (signal.aborted) return;
      failures += 1;
      // Long-poll instead while the stream fails.
      try {
        const state = await api("GET", "/v1/games/" + encodeURIComponent(gameId) + "/events?wait=20&after=" + version, {token});
        if (state.events.length) { version = state.events[state.events.length - 1].version; onEvents(state.events); }
        if (["finished", "cancelled", "expired"].includes(state.status)) return;
      } catch (_) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(10000, 500 * failures)));
      }
    }
  }
}
