// The script of a page that has none of its own (the rules, the API docs): its fixed words
// in the reader's language and the language switch; on the rules page, the rules' text in
// that language where there is one.
import {startLanguage} from "./language.js";

// Show the text of `lang` (the others hidden) and give its rules the anchors (/rules#P3),
// so that every id stays unique; the rule the address names is shown and marked.
function showRules(lang) {
  const texts = [...document.querySelectorAll("[data-rules-lang]")];
  const chosen = texts.find((text) => text.dataset.rulesLang === lang);
  if (!chosen || !chosen.hidden) return;
  for (const text of texts) {
    text.hidden = text !== chosen;
    for (const rule of text.querySelectorAll("li[id], li[data-rule]")) {
      const id = rule.id || rule.dataset.rule;
      rule.removeAttribute("id");
      rule.dataset.rule = id;
      if (text === chosen) rule.id = id;
    }
  }
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target) {
    target.classList.add("targeted");
    target.scrollIntoView();
  }
}

startLanguage().then((lang) => {
  showRules(lang);
  document.body.dataset.lang = lang;
});
