"""A self-contained HTML page rendering the OpenAPI document (no script, no CDN)."""

from __future__ import annotations

import json
from functools import lru_cache
from html import escape

import yaml

METHODS = ("get", "post", "put", "patch", "delete")
STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:1px solid #ccc;margin-top:2.5rem}
.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.m{font-weight:bold;text-transform:uppercase;display:inline-block;width:4.5rem}
.get{color:#0a6}.post{color:#06c}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;font-size:13px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
"""


@lru_cache(maxsize=4)
def render_docs(spec_text: str) -> str:
    """The docs page of an OpenAPI document."""
    spec = yaml.safe_load(spec_text)
    info = spec.get("info", {})
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{escape(info.get('title', 'API'))}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(info.get('title', 'API'))} <small>{escape(str(info.get('version', '')))}"
        "</small></h1>",
        f"<p>{escape(info.get('description', ''))}</p>",
        "<p>Machine-readable contract: <a href='/openapi.yaml'>/openapi.yaml</a></p>",
        "<h2>Paths</h2>",
    ]
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                parts.append(_operation(path, method, item[method], item.get("parameters", [])))
    parts.append("<h2>Schemas</h2>")
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        parts.append(f"<h3 id='schema-{escape(name)}'>{escape(name)}</h3>")
        parts.append(f"<pre>{escape(json.dumps(schema, indent=2))}</pre>")
    parts.append("</body></html>")
    return "".join(parts)


def _operation(path: str, method: str, op: dict, shared_params: list) -> str:
    rows = []
    for param in [*shared_params, *op.get("parameters", [])]:
        if "$ref" in param:
            rows.append(f"<tr><td colspan=4>{escape(_ref_name(param['$ref']))}</td></tr>")
            continue
        schema = json.dumps(param.get("schema", {}))
        rows.append(
            f"<tr><td>{escape(param.get('name', ''))}</td><td>{escape(param.get('in', ''))}</td>"
            f"<td>{escape(schema)}</td><td>{escape(param.get('description', ''))}</td></tr>"
        )
    html = [
        f"<div class='op'><span class='m {method}'>{method}</span><code>{escape(path)}</code>",
        f"<p><b>{escape(op.get('summary', ''))}</b> {escape(op.get('description', ''))}</p>",
    ]
    if rows:
        html.append("<table><tr><th>name</th><th>in</th><th>schema</th><th>about</th></tr>")
        html.extend(rows)
        html.append("</table>")
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    if body:
        html.append(f"<p>Body: {escape(_schema_label(body.get('schema', {})))}</p>")
    html.append("<ul>")
    for status, response in op.get("responses", {}).items():
        if "$ref" in response:
            label = _ref_name(response["$ref"])
            html.append(f"<li><b>{escape(str(status))}</b> {escape(label)}</li>")
            continue
        content = response.get("content", {})
        schema = next(iter(content.values()), {}).get("schema", {}) if content else {}
        html.append(
            f"<li><b>{escape(str(status))}</b> {escape(response.get('description', ''))}"
            f" {escape(_schema_label(schema)) if schema else ''}</li>"
        )
    html.append("</ul></div>")
    return "".join(html)


def _schema_label(schema: dict) -> str:
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    return schema.get("type", "object") if isinstance(schema.get("type"), str) else "object"


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]
