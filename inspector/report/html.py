"""HTML export: one self-contained page per capture, to attach to a bug report.

Why it exists: the person who has to fix a stream (a provider, a gateway's maintainer, a
colleague without this tool) opens a page, not a terminal. The page holds everything ``check``
knows: the overview (dialect, status, model, usage, timing, stop reason), the findings with their
explanation (``inspector.session.advice``), every content block with its text or arguments (raw,
and parsed when complete; for a tool call, the schema its request declared and the violations), a timeline (SVG: events, each block's fragments, the findings), the
raw events and the request/response heads.

Self-contained: inline CSS and a few lines of inline JavaScript (a filter over the raw events);
no font, script, style sheet or image is fetched, so it opens offline and leaks nothing. Every
text is HTML-escaped; secrets are redacted (heads through ``inspector.capture.redact``, anything
key-shaped in bodies, events and messages masked).

Stable hooks for tools and tests: ``#overview``, ``#findings`` (rows ``tr.finding`` with
``data-code``, ``data-event``, ``data-index``), ``#blocks`` (``article.block`` with ``data-pos``; a tool
call's declared schema in ``pre.schema``, each V002 violation a ``p.violation`` with ``data-path``),
``#timeline`` (an ``svg``), ``#events`` (rows ``tr.event`` with ``id="event-N"``), ``#heads``.
"""
from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Iterator
from itertools import islice
from typing import TextIO

import orjson

from inspector import __version__
from inspector.capture.recorder import redact_request, redact_response
from inspector.capture.redact import EventMasks, scrub_secrets
from inspector.model.capture import Capture, end_word
from inspector.model.display import escaped_everywhere
from inspector.providers import summarize
from inspector.report.text import plural
from inspector.session.advice import advice_for
from inspector.session.session import Session
from inspector.model.severity import WORST_FIRST

TIMELINE_WIDTH = 1000
"""Plot width in SVG user units; ticks are binned to this many columns at most."""
ROW = 18


def _e(text) -> str:
    """Escaped, secrets masked."""
    return html.escape(scrub_secrets("" if text is None else str(text)), quote=True)


def _pretty(value) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:
        return repr(value)


def _advice_html(text: str) -> str:
    """Advice paragraphs (blank-line separated), with ``code`` spans; nothing else is markup."""
    paras = []
    for para in text.split("\n\n"):
        escaped = _e(para)
        paras.append("<p>" + re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped) + "</p>")
    return "".join(paras)


def _s(t: float | None) -> str:
    return "—" if t is None else f"{t:.3f} s"


def _ended(s: Session) -> str:
    if s.end is None:
        return "—"
    word = end_word(s.end, s.ended)
    return word + (f": {s.end.error}" if s.end.error and word == s.end.kind else "")


# ---------------------------------------------------------------- sections
def _overview(name: str, cap: Capture | None, s: Session) -> str:
    counts: dict[str, int] = {}
    for f in s.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    status = (s.response or {}).get("status") if s.response else None
    rows = [("dialect", s.dialect_name or "unknown"), ("HTTP status", status if status is not None else "—"),
            ("model", s.model or "—"), ("stop reason", s.stop_reason or "—"),
            ("events", len(s.events)), ("content blocks", len(s.blocks)),
            ("time to first byte", _s(s.ttfb_s)), ("duration", _s(s.duration_s)),
            ("ended", _ended(s)),
            ("usage", orjson.dumps(s.usage).decode() if s.usage else "—")]
    if cap is not None and cap.request:
        req = redact_request(cap.request)
        rows.insert(0, ("request", f"{req.get('method') or ''} {req.get('url') or ''}".strip() or "—"))
    badges = "".join(f'<span class="badge {k}">{plural(counts[k], k)}</span>' for k in WORST_FIRST
                     if counts.get(k)) or '<span class="badge ok">no findings</span>'
    cells = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
    return (f'<section id="overview"><h1>{_e(name)}</h1><p class="badges">{badges}</p>'
            f'<table class="kv">{cells}</table></section>')


def _findings(s: Session) -> Iterator[str]:
    if not s.findings:
        yield '<section id="findings"><h2>Findings</h2><p class="muted">No findings.</p></section>'
        return
    yield ('<section id="findings"><h2>Findings</h2><table class="grid"><thead><tr><th>severity</th>'
           '<th>rule</th><th>what happened</th><th>where</th></tr></thead><tbody>')
    for i, f in enumerate(s.findings):
        where = ", ".join(f.where())
        count = getattr(f, "count", 1) or 1
        times = f' <span class="muted">×{count}</span>' if count > 1 else ""
        event = f'<a href="#event-{f.event}">event {f.event}</a>' if f.event is not None else ""
        yield (f'<tr class="finding {f.severity}" id="finding-{i}" data-code="{_e(f.code)}" '
               f'data-event="{"" if f.event is None else f.event}" data-index="{"" if f.index is None else f.index}">'
               f'<td><span class="badge {f.severity}">{_e(f.severity)}</span></td>'
               f'<td><code>{_e(f.code)}</code> {_e(f.name)}{times}</td>'
               f'<td>{_e(f.message)}<details><summary>what to do</summary>{_advice_html(advice_for(f.code))}'
               f'</details></td><td class="where">{event}<br><span class="muted">{_e(where)}</span></td></tr>')
    yield "</tbody></table></section>"


def _declared(s: Session, b) -> str:
    """What the request declared for a call and how its arguments break it (V rules), or ''."""
    tool = s.declared.tool_for(b)
    if s.declared.declared is None:
        return ""
    if tool is None:
        return (f'<p class="bad violation" data-code="V001">{_e(repr(b.name))} is not a function the request '
                "declared</p>") if b.name else ""
    head = f"declared schema ({tool.where}{', strict' if tool.strict else ''})"
    if tool.shown is None:
        return f'<h4>{_e(head)}</h4><p class="muted">no schema: the name alone is judged</p>'
    out = [f'<h4>{_e(head)}</h4><pre class="content schema">{_e(_pretty(tool.shown))}</pre>']
    for v in s.declared.violations.get(b.pos, ()):
        out.append(f'<p class="bad violation" data-code="V002" data-path="{_e(v.path)}">'
                   f"{_e(v.path)}: {_e(v.message)} ({_e(v.keyword)})</p>")
    return "".join(out)


BIG_CONTENT = 20_000
"""Characters of a block's text beyond which it is shown folded (``<details>``): the browser lays
out a folded text only when it is opened, so a 400 k-character tool call does not slow the page."""


def _content(label: str, escaped: str, length: int) -> str:
    """A heading and ``<pre class="content">`` (``escaped``: HTML already); folded when long."""
    pre = f'<pre class="content">{escaped}</pre>'
    if length <= BIG_CONTENT:
        return f"<h4>{label}</h4>{pre}"
    return f'<details class="big"><summary>{label}: {length:,} characters (open to show)</summary>{pre}</details>'


def _block(b, s: Session) -> str:
    d = b.to_dict()
    title = f"#{b.index if b.index is not None else '-'} {b.kind}"
    if b.choice not in (None, 0):
        title += f" (choice {b.choice})"
    facts = [("name", b.name), ("id", b.id), ("call id", b.call_id), ("status", d["status"]),
             ("closed", "yes" if b.closed else "no (still open at the end)"), ("deltas", b.deltas),
             ("first delta", _s(b.first_delta_s)), ("last delta", _s(b.last_delta_s)),
             ("largest gap", _s(b.max_gap_s)), ("stop", b.stop_info), ("attribution", b.attribution)]
    kv = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in facts if v not in (None, ""))
    body = b.content or b.empty_shown
    label = "arguments (raw)" if b.tool else "text"
    parts = [f'<h3>{_e(title)}</h3><table class="kv">{kv}</table>',
             _content(label, _e(body) if body else "<span class=muted>(empty)</span>", len(body or ""))]
    if b.tool and d["input"] is not None:
        pretty = _pretty(d["input"])
        parts.append(_content("arguments (parsed)", _e(pretty), len(pretty)))
    if b.tool and b.progress is not None and d["status"] == "invalid":
        reason = getattr(b.progress, "error_reason", None)
        at = getattr(b.progress, "error_offset", None)
        why = f"not valid JSON at character {at}: {reason}" if reason and at is not None else "not valid JSON"
        parts.append(f'<p class="bad">{_e(why)}</p>')
    if b.tool:
        parts.append(_declared(s, b))
    return (f'<article class="block{" tool" if b.tool else ""}" id="block-{b.pos}" data-pos="{b.pos}" '
            f'data-index="{"" if b.index is None else b.index}">' + "".join(parts) + "</article>")


def _blocks(s: Session) -> Iterator[str]:
    yield '<section id="blocks"><h2>Content blocks</h2>'
    for b in s.blocks:
        yield _block(b, s)
    yield '</section>' if s.blocks else '<p class="muted">No content block.</p></section>'


def _bins(xs: list[float], lo: float, hi: float) -> list[tuple[float, int]]:
    """``xs`` binned into at most ``TIMELINE_WIDTH`` columns: ``(x in plot units, how many)``."""
    span = (hi - lo) or 1.0
    cols: dict[int, int] = {}
    for x in xs:
        c = min(TIMELINE_WIDTH - 1, max(0, int((x - lo) / span * TIMELINE_WIDTH)))
        cols[c] = cols.get(c, 0) + 1
    return sorted((float(c), n) for c, n in cols.items())


def _timeline(s: Session) -> str:
    timed = any(ev.t is not None for ev in s.events)
    if timed:
        pos = [ev.t for ev in s.events if ev.t is not None]
        lo, hi = 0.0 if s.request_relative else min(pos), max(pos + [s.duration_s or 0.0])
        unit = "seconds"

        def x_of_event(ev):
            return ev.t
    else:
        lo, hi = 0.0, float(max(len(s.events) - 1, 1))
        unit = "event number"

        def x_of_event(ev):
            return float(ev.index)
    span = (hi - lo) or 1.0
    scale = TIMELINE_WIDTH / span
    label_w, rows, svg = 180, [], []
    rows.append(("events", [x for x in (x_of_event(ev) for ev in s.events) if x is not None]))
    for b in s.blocks:
        if timed:
            xs = [t for t, _ in b.fragment_times if t is not None]
        else:
            xs = [float(e) for e in (b.opened_event, b.closed_event) if e is not None]
        rows.append((f"#{b.index if b.index is not None else '-'} {b.kind} {b.name or ''}".strip(), xs))
    height = ROW * (len(rows) + 2) + 10
    for r, (label, xs) in enumerate(rows):
        y = ROW * r + 4
        svg.append(f'<text x="0" y="{y + 12}" class="lbl">{_e(label[:28])}</text>')
        if xs:
            a, z = (min(xs) - lo) * scale, (max(xs) - lo) * scale
            svg.append(f'<rect x="{label_w + a:.1f}" y="{y + 6}" width="{max(z - a, 1):.1f}" height="2" class="span"/>')
        for c, n in _bins(xs, lo, hi):
            svg.append(f'<rect x="{label_w + c:.1f}" y="{y + 2}" width="1.5" height="10" class="tick">'
                       f"<title>{n} {'fragment' if r else 'event'}{'s' if n > 1 else ''}</title></rect>")
    y = ROW * len(rows) + 4
    svg.append(f'<text x="0" y="{y + 12}" class="lbl">findings</text>')
    for f in s.findings:
        x = f.t if timed else (float(f.event) if f.event is not None else None)
        if x is None:
            continue
        px = label_w + min(TIMELINE_WIDTH, max(0.0, (x - lo) * scale))
        svg.append(f'<path d="M{px:.1f},{y + 2} l5,10 l-10,0 z" class="mark {f.severity}">'
                   f"<title>{_e(f.code)} {_e(f.name)}: {_e(f.message)}</title></path>")
    y = ROW * (len(rows) + 1) + 4
    for frac in (0.0, 0.5, 1.0):
        v = lo + span * frac
        svg.append(f'<text x="{label_w + TIMELINE_WIDTH * frac:.1f}" y="{y + 12}" class="axis" '
                   f'text-anchor="{"start" if frac == 0 else "end" if frac == 1 else "middle"}">'
                   f'{v:.3f}{" s" if timed else ""}</text>')
    return (f'<section id="timeline"><h2>Timeline</h2><p class="muted">x: {unit}; a tick per event or '
            f'fragment (binned), a triangle per finding.</p><svg viewBox="0 0 {label_w + TIMELINE_WIDTH + 10} '
            f'{height}" role="img" aria-label="timeline">{"".join(svg)}</svg></section>')


EVENT_BATCH = 2048
"""Events per ``script.event-data`` element: the page's script parses a batch when a row of it
is drawn (the first page parses one), not the whole stream at load."""
PAGE_ROWS = 200
"""Rows of the events table drawn at once (the page's script pages through the rest)."""
SUMMARY_CHARS = 300
"""Characters of an event's summary in the page (its data follows whole)."""


def _summary(ev, dialect: str | None) -> str:
    text = scrub_secrets(summarize(ev, dialect))
    return text if len(text) <= SUMMARY_CHARS else text[:SUMMARY_CHARS] + "…"


GZIP_LEVEL = 6
"""A batch of events is gzipped, then base64: a stream's events repeat themselves (8 to 20 times
smaller), and the browser reads a tenth of the bytes before it can draw anything."""


def _json(value) -> str:
    """``value`` as JSON safe inside a ``<script>`` element: ``<`` as ``\\u003c`` (no ``</script>``
    or ``<!--`` can end or bend it); a lone surrogate (undecodable bytes) escaped, not fatal."""
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = json.dumps(value)
    return text.replace("<", "\\u003c")


def _events(s: Session) -> Iterator[str]:
    """The events section: the table's frame, then every event as JSON, ``EVENT_BATCH`` to a
    ``<script type="application/gzip" class="event-data">`` element (base64 of the gzipped JSON
    array of ``[t, line, name, keepalive, summary, data]``, ``name`` an index into the array in
    ``script#event-names``; the page's script unpacks it with the browser's ``DecompressionStream``).
    The page's script draws ``PAGE_ROWS`` rows at a time (``tr.event``, ``id="event-N"``) and parses
    a batch only when it needs it: a page of 50 000 events opens about as fast as one of a dozen,
    and weighs about what the capture weighs."""
    n = len(s.events)
    if not n:
        yield '<section id="events"><h2>Raw events</h2><p class="muted">No event.</p></section>'
        return
    yield ('<section id="events"><h2>Raw events</h2><p><input id="filter" type="search" '
           'placeholder="filter events (name or data)" aria-label="filter events"> '
           '<label><input id="pings" type="checkbox" checked> keep-alives</label></p>'
           '<nav class="pager"><button id="first" type="button">«</button><button id="prev" type="button">‹</button>'
           '<span id="page-info"></span><button id="next" type="button">›</button>'
           '<button id="last" type="button">»</button></nav>'
           f'<table class="grid" id="event-table" data-events="{n}" data-batch="{EVENT_BATCH}"><thead><tr><th>#</th>'
           '<th>t (s)</th><th>line</th><th>event</th><th>summary / data</th></tr></thead><tbody id="event-rows">'
           f'</tbody></table><noscript><p class="muted">The table of the {plural(n, "event")} needs JavaScript; '
           'they are in this page as gzipped JSON (the script elements <code>.event-data</code>, base64).</p>'
           '</noscript>')
    shown = EventMasks(s.events).each()  # a key split across events is masked in each of them
    names: dict[str, int] = {}
    dialect = s.dialect_name
    for lo in range(0, n, EVENT_BATCH):
        rows = []
        for ev in islice(shown, EVENT_BATCH):
            name = names.setdefault(ev.name, len(names))
            rows.append(_json([ev.t, ev.line, name, 1 if ev.keepalive else 0, _summary(ev, dialect), ev.data]))
        packed = base64.b64encode(gzip.compress(f"[{','.join(rows)}]".encode(), GZIP_LEVEL, mtime=0)).decode()
        yield f'<script type="application/gzip" class="event-data">{packed}</script>'
    yield ('<script type="application/json" id="event-names">' + _json([scrub_secrets(k) for k in names])
           + "</script></section>")


def _heads(cap: Capture | None) -> str:
    if cap is None or (cap.request is None and cap.response is None):
        return ""
    parts = ['<section id="heads"><h2>Request and response</h2>']
    req = redact_request(cap.request)
    if req is not None:
        headers = "\n".join(f"{k}: {v}" for k, v in (req.get("headers") or {}).items())
        line = f"{req.get('method') or ''} {req.get('url') or ''}"  # formatted: any JSON type reads
        parts.append(f"<h3>request</h3><pre>{_e(line)}\n"
                     f"{_e(headers)}</pre>")
        if req.get("body") is not None:
            parts.append(f"<h4>body</h4><pre>{_e(_pretty(req['body']) if not isinstance(req['body'], str) else req['body'])}</pre>")
    resp = redact_response(cap.response)
    if resp is not None:
        headers = "\n".join(f"{k}: {v}" for k, v in (resp.get("headers") or {}).items())
        parts.append(f"<h3>response</h3><pre>{_e(resp.get('status'))}\n{_e(headers)}</pre>")
    return "".join(parts) + "</section>"


CSS = """
:root{color-scheme:light dark;--fg:#1d2330;--bg:#fbfbfd;--muted:#6b7280;--line:#d9dce3;--panel:#f1f3f7;
--error:#c62828;--warning:#b26a00;--info:#1f63c6;--ok:#2e7d32;--tick:#4b5563}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ee;--bg:#14161b;--muted:#9aa1ad;--line:#2c313a;
--panel:#1c1f26;--error:#ef6b6b;--warning:#e0a43a;--info:#6ea8ff;--ok:#6cc070;--tick:#aab2bf}}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);
margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{font-size:1.3rem;word-break:break-all}h2{border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2rem}
pre,code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:.3rem 0}
table{border-collapse:collapse}.grid{width:100%}.grid td,.grid th{border-top:1px solid var(--line);padding:.3rem .5rem;
vertical-align:top;text-align:left}.kv th{text-align:left;color:var(--muted);font-weight:normal;padding-right:1rem}
.badge{display:inline-block;border-radius:.6rem;padding:0 .5rem;color:#fff;font-size:12px;margin-right:.3rem}
.badge.error{background:var(--error)}.badge.warning{background:var(--warning)}.badge.info{background:var(--info)}
.badge.ok{background:var(--ok)}.muted{color:var(--muted)}.bad{color:var(--error)}
.block{border:1px solid var(--line);border-radius:.4rem;padding:.2rem .8rem .6rem;margin:.8rem 0}
.block h3{margin:.4rem 0}.block h4{margin:.5rem 0 0;color:var(--muted);font-weight:normal}
svg{width:100%;height:auto}svg .lbl,svg .axis{font:11px ui-monospace,monospace;fill:var(--muted)}
svg .tick{fill:var(--tick)}svg .span{fill:var(--line)}svg .mark.error{fill:var(--error)}
svg .mark.warning{fill:var(--warning)}svg .mark.info{fill:var(--info)}
tr.event:target,tr.event.hit,tr.finding:target{background:var(--panel)}.sum{font:12.5px ui-monospace,monospace;word-break:break-all}
details summary{cursor:pointer;color:var(--muted)}details.big{margin:.5rem 0}#filter{width:20rem}.pager{margin:.4rem 0}.pager button{margin-right:.3rem}.where{white-space:nowrap}
footer{margin:3rem 0 1rem;color:var(--muted);font-size:12px}
"""

JS = """
(function(){var T=document.getElementById('event-table');if(!T)return;
var n=+T.getAttribute('data-events'),BATCH=+T.getAttribute('data-batch'),SIZE=%d,
B=document.querySelectorAll('script.event-data'),P=[],N=JSON.parse(document.getElementById('event-names').textContent);
var f=document.getElementById('filter'),p=document.getElementById('pings'),tb=document.getElementById('event-rows'),
info=document.getElementById('page-info'),shown=null,page=0,hit=-1,turn=0;
function unpack(k){if(P[k])return P[k];var b=atob(B[k].textContent),a=new Uint8Array(b.length);
for(var j=0;j<b.length;j++)a[j]=b.charCodeAt(j);
return P[k]=new Response(new Blob([a]).stream().pipeThrough(new DecompressionStream('gzip'))).text()
.then(function(t){return P[k]=JSON.parse(t);});}
function need(lo,hi){var w=[];for(var k=Math.floor(lo/BATCH);k<=Math.floor(Math.max(lo,hi-1)/BATCH)&&k<B.length;k++)
w.push(unpack(k));return Promise.all(w);}
function ev(i){var k=Math.floor(i/BATCH);return P[k][i-k*BATCH];}
function count(){return shown?shown.length:n;}
function at(k){return shown?shown[k]:k;}
function td(tr,t){var c=document.createElement('td');c.textContent=t;tr.appendChild(c);return c;}
function row(i){var e=ev(i),tr=document.createElement('tr');tr.className='event'+(e[3]?' keepalive':'')+(i===hit?' hit':'');
tr.id='event-'+i;tr.setAttribute('data-event',i);td(tr,i);td(tr,e[0]===null?'':e[0].toFixed(3));
td(tr,e[1]===null?'':e[1]);td(tr,N[e[2]]);var c=td(tr,''),s=document.createElement('div');s.className='sum';
s.textContent=e[4];var d=document.createElement('details'),m=document.createElement('summary'),
pre=document.createElement('pre');m.textContent='data';d.appendChild(m);d.appendChild(pre);
d.addEventListener('toggle',function(){if(d.open&&!pre.firstChild)pre.textContent=e[5];});
c.appendChild(s);c.appendChild(d);return tr;}
function draw(){var c=count(),pages=Math.max(1,Math.ceil(c/SIZE));page=Math.min(Math.max(page,0),pages-1);
var lo=page*SIZE,hi=Math.min(c,lo+SIZE),mine=++turn,first=c?at(lo):0,last=c?at(hi-1)+1:0;
return need(first,last).then(function(){if(mine!==turn)return;var frag=document.createDocumentFragment();
for(var k=lo;k<hi;k++)frag.appendChild(row(at(k)));tb.textContent='';tb.appendChild(frag);
info.textContent=c?' page '+(page+1)+' of '+pages+': events '+first+'\u2013'+(last-1)+
' ('+c+(c===n?'':' of '+n)+' shown) ':' no event matches ';});}
function apply(){var q=f.value.toLowerCase(),keep=p.checked;
if(!q&&keep){shown=null;page=0;return draw();}
return need(0,n).then(function(){var out=[];for(var i=0;i<n;i++){var e=ev(i);if(!keep&&e[3])continue;
if(q&&(N[e[2]]+' '+e[4]+' '+e[5]).toLowerCase().indexOf(q)<0)continue;out.push(i);}
if(f.value.toLowerCase()!==q||p.checked!==keep)return;shown=out;page=0;return draw();});}
function go(){var m=/^#event-(\\d+)$/.exec(location.hash);if(!m)return;var i=+m[1];if(i>=n)return;
var k=shown?shown.indexOf(i):i;if(k<0){f.value='';p.checked=true;shown=null;k=i;}
hit=i;page=Math.floor(k/SIZE);draw().then(function(){var r=document.getElementById('event-'+i);
if(r)r.scrollIntoView({block:'center'});});}
f.addEventListener('input',apply);p.addEventListener('change',apply);
document.getElementById('first').onclick=function(){page=0;draw();};
document.getElementById('prev').onclick=function(){page--;draw();};
document.getElementById('next').onclick=function(){page++;draw();};
document.getElementById('last').onclick=function(){page=1e9;draw();};
window.addEventListener('hashchange',go);if(/^#event-/.test(location.hash))go();else draw();})();
""" % PAGE_ROWS


def page_name(name: str) -> str:
    """What the page calls the capture: the file's own name, never the path it was given by
    (``/home/alice/bugs/run.jsonl`` -> ``run.jsonl``: a user name must not end up in a page meant
    for a public issue); a stream's ``#N`` stays."""
    return re.split(r"[/\\]", name.rstrip("/\\"))[-1] or name


def chunks(name: str, s: Session, cap: Capture | None = None) -> Iterator[str]:
    """The page for session ``s`` of the capture called ``name`` (``cap`` adds the request and
    response heads), piece by piece: no piece is the whole page (the events go in batches). No
    control or bidi character from the capture is written raw (``escaped_everywhere``): the page
    may go to a terminal (``export`` without ``-o``), and a page's own markup has none."""
    return map(escaped_everywhere, _pieces(name, s, cap))


def _pieces(name: str, s: Session, cap: Capture | None) -> Iterator[str]:
    name = page_name(name)
    yield ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
           f"<title>{_e(name)} · stream-inspector</title><style>{CSS}</style></head><body>")
    yield _overview(name, cap, s)
    yield from _findings(s)
    yield from _blocks(s)
    yield _timeline(s)
    yield from _events(s)
    yield _heads(cap)
    yield (f"<footer>stream-inspector {_e(__version__)} · a self-contained page: nothing here is fetched "
           f"from the network</footer><script>{JS}</script></body></html>\n")


def write(out: TextIO, name: str, s: Session, cap: Capture | None = None) -> None:
    """Write the page (``chunks``) to the text stream ``out`` as it is made."""
    for piece in chunks(name, s, cap):
        out.write(piece)


def render(name: str, s: Session, cap: Capture | None = None) -> str:
    """The whole page as one string (tests, small captures); ``write`` streams it."""
    return "".join(chunks(name, s, cap))
