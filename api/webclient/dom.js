// Small DOM helpers: elements are built from data, never parsed from it as HTML.
import {cardWords} from "./words.js";

export {cardWords};

export const COLOURS = ["brown", "yellow", "pink", "green", "blue"];
// Every colour also has a symbol and a letter, so no card depends on seeing its colour.
export const MARKS = {
  brown: "■", yellow: "●", pink: "♥", green: "♣", blue: "◆", point: "✦", stone: "◎",
};
export const LETTERS = {brown: "Br", yellow: "Ye", pink: "Pk", green: "Gr", blue: "Bl", point: "Pt", stone: "St"};

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
  return el("span", {class: "tag c-" + colour, title: colour}, [
    el("span", {class: "mark", "aria-hidden": "true", text: MARKS[colour] || ""}), el("span", {class: "tag-word", text: " " + colour})]);
}

export function clear(node, ...children) {
  node.replaceChildren(...children.filter((c) => c !== null && c !== undefined));
}
