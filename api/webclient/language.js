// The page's language: the reader's stored choice (local storage `keltis.lang`), else the
// browser's languages (navigator.languages, what it sends as Accept-Language), else
// English. The chosen catalog is loaded (each language is one versioned, cached module),
// the page's fixed words (`data-i18n`) are translated, <html lang> is set, and a switch in
// the top bar stores another choice and draws the page again in it.
import {LANGUAGES, currentLanguage, t, useCatalog} from "./i18n.js";

export const STORED = "keltis.lang";
const NAMES = {en: "English", hu: "Magyar", de: "Deutsch"};
// Each a literal import, so that the served file carries its versioned URL.
const LOADERS = {hu: () => import("./lang-hu.js"), de: () => import("./lang-de.js")};

function stored() {
  try { return localStorage.getItem(STORED); } catch (_) { return null; }
}

// The language to show: a stored choice, else the first of the browser's we have.
export function chooseLanguage() {
  const choice = stored();
  if (LANGUAGES.includes(choice)) return choice;
  const asked = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of asked) {
    const base = String(tag).toLowerCase().split(/[-_;]/)[0].trim();  // "de-AT", "de;q=0.7"
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

// `[P3]` links the rule, `[words](/path)` a page; the rest stays text (never parsed as HTML).
export function richText(message) {
  const nodes = [];
  let at = 0;
  for (const match of message.matchAll(/\[([^\]]+)\](?:\(([^)\s]+)\))?/g)) {
    const [whole, words, href] = match;
    const rule = !href && /^[A-Z][0-9]{1,2}$/.test(words);
    if (!href && !rule) continue;
    nodes.push(message.slice(at, match.index));
    const link = document.createElement("a");
    link.href = href || "/rules#" + words;
    link.textContent = words;
    nodes.push(link);
    at = match.index + whole.length;
  }
  nodes.push(message.slice(at));
  return nodes.filter((node) => node !== "");
}

// The fixed words of the page: `data-i18n="key"` (its text; with `data-i18n-rich`, links
// too; with `data-i18n-optional`, shown only when the message is not empty) and
// `data-i18n-attr="aria-label=key;title=key"`; the page's title from <body data-i18n-title>.
export function translatePage(root = document) {
  const title = document.body && document.body.dataset.i18nTitle;
  if (title) document.title = t(title);
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const words = t(node.dataset.i18n);
    if (node.hasAttribute("data-i18n-rich")) node.replaceChildren(...richText(words));
    else node.textContent = words;
    if (node.hasAttribute("data-i18n-optional")) node.hidden = !words;
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split("=");
      if (attribute && key) node.setAttribute(attribute.trim(), t(key.trim()));
    }
  }
}

// The switch: a labelled select in the top bar (or in a `data-lang-slot` element).
function mountSwitch() {
  const slot = document.querySelector("[data-lang-slot]") || document.querySelector("header.top");
  if (!slot || document.getElementById("lang-switch")) return;
  const label = document.createElement("label");
  label.htmlFor = "lang-switch";
  label.className = "sr-only";
  label.textContent = t("lang.label");
  const select = document.createElement("select");
  select.id = "lang-switch";
  select.dataset.testid = "lang-switch";
  select.title = t("lang.label");
  for (const lang of LANGUAGES) {
    const option = document.createElement("option");
    option.value = lang;
    option.lang = lang;
    option.textContent = NAMES[lang];
    select.append(option);
  }
  select.value = currentLanguage();
  select.addEventListener("change", () => {
    try { localStorage.setItem(STORED, select.value); } catch (_) { /* this visit only */ }
    location.reload();
  });
  const box = document.createElement("span");
  box.className = "lang-switch";
  box.append(label, select);
  slot.append(box);
}

let started = null;

// Load the chosen language and translate the page, once per page; resolves to the language.
export function startLanguage() {
  if (!started) {
    started = (async () => {
      const lang = chooseLanguage();
      if (LOADERS[lang]) {
        try {
          useCatalog(lang, (await LOADERS[lang]()).messages);
        } catch (_) { /* its catalog did not load: English */ }
      }
      document.documentElement.lang = currentLanguage();
      translatePage();
      mountSwitch();
      document.documentElement.dataset.lang = currentLanguage();
      return currentLanguage();
    })();
  }
  return started;
}
