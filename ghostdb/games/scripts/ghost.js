// Ghost's moves, for the offline site (`ghostdb export site`): the JavaScript twin of
// ghostdb/games/ghost (candidates, move order and notation); tests/test_site.py checks
// that the two list the same moves for every position of every variant.
"use strict";

(function register(moves) {
  const FORMS = {
    ghost: ["append"], super: ["append", "prepend"],
    superduper: ["append", "prepend", "reverse_append", "reverse_prepend"],
  };
  const NOTATION = { append: (c) => `${c}+`, prepend: (c) => `+${c}`,
    reverse_append: (c) => `~${c}+`, reverse_prepend: (c) => `+${c}~` };
  // Python sorts strings by code point; spreading keeps astral letters whole.
  const sortChars = (text) => [...text].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join("");
  const reverse = (text) => [...text].reverse().join("");

  function apply(key, letter, form) {
    const base = form.startsWith("reverse") ? reverse(key) : key;
    return form.endsWith("append") ? base + letter : letter + base;
  }

  function insertNotation(letter, at, length) {
    if (at === 0) return `+${letter}`;
    if (at === length) return `${letter}+`;
    return `${letter}@${at}`;
  }

  moves.ghost = (rulesKey, alphabet) => {
    const parts = rulesKey.split("/");
    const variant = parts[0];
    const players = parts.length > 2 && parts[parts.length - 1].endsWith("p")
      ? Number(parts[parts.length - 1].slice(0, -1)) : 2;
    const letters = sortChars(alphabet);
    const chars = [...letters];
    return {
      start: () => "",
      toMove: (key) => [...key].length % players,
      ending: (key) => `completed the word '${key}'`,
      cleanKey(text) {
        const fragment = text.trim().normalize("NFC").toLowerCase();
        const bad = [...fragment].find((ch) => !/\p{L}/u.test(ch));
        if (bad !== undefined) {
          throw new ApiError(`'${text}' has '${bad}', which is not a letter: a fragment is letters only`, 400);
        }
        return variant === "anagram" ? sortChars(fragment) : fragment;
      },
      candidates(key) {
        if (variant === "anagram") return chars.map((c) => [c, sortChars(key + c)]);
        const found = new Map();  // child -> notation: the first move to a child names it
        if (variant === "insert") {
          const at = [...key];
          for (const c of chars) {
            for (let i = 0; i <= at.length; i += 1) {
              const child = at.slice(0, i).join("") + c + at.slice(i).join("");
              if (!found.has(child)) found.set(child, insertNotation(c, i, at.length));
            }
          }
        } else {
          for (const c of chars) {
            for (const form of FORMS[variant]) {
              const child = apply(key, c, form);
              if (!found.has(child)) found.set(child, variant === "ghost" ? c : NOTATION[form](c));
            }
          }
        }
        return [...found].map(([child, notation]) => [notation, child]);
      },
      notStored(key, name) {
        const minimum = parts[1];
        if (variant !== "ghost") {
          return `'${key}' is part of no word of ${minimum}+ letters in ${name}: whoever made it has lost`;
        }
        return `'${key}' begins no word of ${minimum}+ letters in ${name}: whoever made it has lost`;
      },
    };
  };
}(window.GAME_MOVES = window.GAME_MOVES || {}));
