// A small offline browser for /openapi.json: each operation with its parameters and a
// form that sends it and shows the JSON answer.
"use strict";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// The descriptions' bits of Markdown: `code`, ``code`` and **bold**.
function prose(text) {
  const node = el("p");
  for (const part of (text || "").split(/(``[^`]+``|`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (part.startsWith("`")) node.append(el("code", {}, part.replace(/^`+|`+$/g, "")));
    else if (part.startsWith("**")) node.append(el("strong", {}, part.slice(2, -2)));
    else node.append(part);
  }
  return node;
}

function typeOf(schema) {
  if (!schema) return "";
  if (schema.anyOf) return schema.anyOf.map(typeOf).filter((t) => t !== "null").join(" | ");
  let text = schema.enum ? schema.enum.join(" | ") : schema.type || "";
  const limits = [];
  if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) limits.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) limits.push(`≤ ${schema.maxLength} chars`);
  if (limits.length) text += ` (${limits.join(", ")})`;
  return text;
}

function operation(path, method, op) {
  const id = op.operationId || `${method}-${path}`;
  const params = op.parameters || [];
  const out = el("pre", { class: "scroll", "aria-live": "polite" });
  const inputs = params.map((p) => {
    const example = p.example ?? (p.examples ? Object.values(p.examples)[0]?.value ?? p.schema?.examples?.[0] : p.schema?.examples?.[0]);
    return el("input", { name: p.name, "aria-label": p.name, placeholder: example ?? p.schema?.default ?? "", maxlength: 100 });
  });
  const send = async (event) => {
    event.preventDefault();
    let url = path;
    const query = new URLSearchParams();
    params.forEach((p, i) => {
      const value = inputs[i].value || (p.in === "path" ? inputs[i].placeholder : "");
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(value));
      else if (value !== "") query.set(p.name, value);
    });
    const full = query.toString() ? `${url}?${query}` : url;
    const response = await fetch(full);
    const text = await response.text();
    let shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON */ }
    out.textContent = `GET ${full}\n${response.status}\n\n${shown.slice(0, 20000)}`;
  };
  return el("section", { id },
    el("h2", {}, `${method.toUpperCase()} ${path}`),
    op.description ? prose(op.description) : el("p", {}, op.summary || ""),
    params.length ? el("table", {}, el("thead", {}, el("tr", {}, ["parameter", "in", "type", "about", "value"].map((h) => el("th", {}, h)))),
      el("tbody", {}, params.map((p, i) => el("tr", {},
        el("td", {}, el("code", {}, p.name), p.required ? " *" : ""), el("td", {}, p.in),
        el("td", {}, typeOf(p.schema)), el("td", {}, p.description || p.schema?.description || ""),
        el("td", {}, inputs[i]))))) : null,
    el("form", { onsubmit: send }, el("button", { type: "submit" }, "Send")),
    out);
}

async function main() {
  const spec = await (await fetch("/openapi.json")).json();
  document.querySelector("#intro").replaceWith(prose(`${spec.info.title} ${spec.info.version}: ${spec.info.summary || ""} ${spec.info.description || ""}`));
  const sections = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) sections.push(operation(path, method, op));
  }
  document.querySelector("#paths").replaceChildren(...sections);
}

main();
