// The pages' words in the reader's language: `t(key, params)` looks a key up in the chosen
// catalog (lang-hu.js, lang-de.js), then in English (lang-en.js, always here: the table
// modules are also drawn by the replay viewer, which has no other). A message is a string
// with {name} places, or {one, other} where a count decides the form. language.js chooses
// the language and loads its catalog; this module only holds it.
import {messages as english} from "./lang-en.js";

export const LANGUAGES = ["en", "hu", "de"];
let language = "en";
let chosen = english;
let plurals = new Intl.PluralRules("en");

// Use `messages` (a catalog) for `lang` from now on.
export function useCatalog(lang, messages) {
  language = lang;
  chosen = messages;
  plurals = new Intl.PluralRules(lang);
}

export function currentLanguage() {
  return language;
}

// Whether the chosen catalog (not the English fallback) has `key`.
export function hasKey(key) {
  return Object.prototype.hasOwnProperty.call(chosen, key) || (language === "en" && key in english);
}

function pick(message, params) {
  if (typeof message === "string") return message;
  const count = Number(params.count);
  return message[plurals.select(count)] ?? message.other;
}

// The message of `key` with its {places} filled from `params`; the key itself when no
// catalog has it (a missing key shows, it never breaks a page).
export function t(key, params = {}) {
  const message = Object.prototype.hasOwnProperty.call(chosen, key) ? chosen[key] : english[key];
  if (message === undefined) return key;
  return pick(message, params).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The message of `key`, or `fallback` when no catalog has it (words the service sends).
export function tOr(key, fallback, params = {}) {
  return Object.prototype.hasOwnProperty.call(english, key) ? t(key, params) : fallback;
}

// A colour (or "point") by its name in the chosen language.
export function colourName(colour) {
  return t("colour." + colour);
}
