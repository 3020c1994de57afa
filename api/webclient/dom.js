// Small DOM helpers: elements are built from data, never parsed from it as HTML.
import {cardWords} from "./tableWords.js";
import {colourName, t} from "./i18n.js";

export {cardWords};

export const COLOURS = ["brown", "yellow", "pink", "green", "blue"];
// Every colour also has a symbol, so no card or die depends on seeing its colour.
export const MARKS = {
  brown: "■", yellow: "●", pink: "♥", green: "♣", blue: "◆", point: "✦", stone: "◎",
};

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export const $ = (testid) => document.querySelector('[data-testid="' + testid + '"]');

export function splitCard(card) {
  const cut = card.lastIndexOf("-");
  return {kind: card.slice(0, cut), value: card.slice(cut + 1)};
}

// A card chip: its colour, its colour's symbol and its value ("E" for an end card).
export function cardChip(card, extra) {
  const {kind, value} = splitCard(card);
  return el("span", {class: "card c-" + kind + (extra ? " " + extra : ""), "data-card": card,
                     role: "img", title: cardWords(card), "aria-label": cardWords(card)}, [
    el("span", {class: "mark", "aria-hidden": "true", text: MARKS[kind] || "?"}),
    el("span", {class: "value", "aria-hidden": "true", text: value === "end" ? "E" : value}),
  ]);
}

export function colourTag(colour) {
  const word = colourName(colour);
  return el("span", {class: "tag c-" + colour, title: word}, [
    el("span", {class: "mark", "aria-hidden": "true", text: MARKS[colour] || ""}), el("span", {class: "tag-word", text: " " + word})]);
}

export function clear(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
}

// Words for a player: the rule ids the words cite ("… (P3)", "(service rule E4)", in any
// language) leave the sentence and become one small "why?" link to the rule on /rules,
// opened beside the table.
const RULE_ID = /\s*\((?:[^()0-9]*\s)?([A-Z][0-9]{1,2})\)/g;

export function withWhy(words) {
  const ids = [...words.matchAll(RULE_ID)].map((m) => m[1]);
  const plain = words.replace(RULE_ID, "");
  if (!ids.length) return [plain];
  const rule = ids[0];
  return [plain, " ", el("a", {class: "why", href: "/rules#" + rule, target: "_blank", rel: "noopener",
                               "data-rule": rule, title: t("why.title", {rule}), text: t("why.link")})];
}

// The same words without their rule ids (a tooltip, a screen reader's label).
export function plainWords(words) {
  return words.replace(RULE_ID, "");
}

// The one rating people see (GET answers' `rating`), "?" while it is provisional: "1544",
// "1500?".
export function ratingWords(rating) {
  return String(rating.rating) + (rating.provisional ? "?" : "");
}
