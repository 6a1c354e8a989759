/** The export's whole stylesheet, inlined (no fonts or other files: the page works offline). */
export const EXPORT_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#656d76;--border:#d0d7de;--panel:#f6f8fa;--accent:#0969da;
--user:#ddf4ff;--tool:#f6f8fa;--error:#cf222e;--sel:rgba(9,105,218,.2);--path:rgba(9,105,218,.07);--code:#f6f8fa;
--label:#9a6700;--k:#cf222e;--s:#0a3069;--t:#8250df;--n:#0550ae;--c:#6e7781;--y:#953800}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--border:#30363d;--panel:#161b22;
--accent:#4493f8;--user:#0c2d48;--tool:#161b22;--error:#f85149;--sel:rgba(68,147,248,.3);--path:rgba(68,147,248,.1);
--code:#161b22;--label:#bb8009;--k:#ff7b72;--s:#a5d6ff;--t:#d2a8ff;--n:#79c0ff;--c:#8b949e;--y:#ffa657}}
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);overflow:hidden}
#app{display:flex;flex-direction:column;height:100vh;min-height:0}
.page-header{flex:none;max-height:40vh;overflow:auto;padding:10px 16px;border-bottom:1px solid var(--border);background:var(--panel)}
.session-title{font-size:18px;margin:0 0 6px;overflow-wrap:anywhere}
.facts{display:flex;flex-wrap:wrap;gap:2px 18px;font-size:12px}
.fact-name{color:var(--muted);margin-right:6px}
.fact-value{overflow-wrap:anywhere}
.agent-state{margin-top:6px}
.layout{flex:1;display:flex;min-height:0}
.sidebar{width:380px;flex:none;display:flex;flex-direction:column;border-right:1px solid var(--border);min-height:0}
.tree-controls{padding:8px;border-bottom:1px solid var(--border);display:flex;flex-direction:column;gap:6px}
.tree-search{width:100%;padding:4px 8px;font:inherit;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg)}
.tree-filters{display:flex;flex-wrap:wrap;gap:4px}
.filter,.load-earlier{font:12px system-ui,sans-serif;padding:2px 10px;border:1px solid var(--border);border-radius:12px;background:var(--bg);color:var(--fg);cursor:pointer}
.filter.active{background:var(--accent);border-color:var(--accent);color:#fff}
.tree-count{font-size:11px;color:var(--muted)}
.tree-scroll{flex:1;overflow:auto;position:relative;outline:none}
.tree-spacer{position:relative}
.tree-row{position:absolute;left:0;right:0;height:22px;line-height:22px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:12px;cursor:pointer;padding:0 6px}
.tree-row:hover,.tree-row.in-path{background:var(--path)}
.tree-row.selected{background:var(--sel);font-weight:600}
.tree-row .marker{color:var(--muted);margin-right:4px;font-size:10px}
.tree-row.active-path .marker{color:var(--accent)}
.tree-row .connector{color:var(--muted);font-family:ui-monospace,monospace;white-space:pre}
.tree-row .label,.label-badge{background:var(--label);color:#fff;border-radius:4px;padding:0 4px;margin-right:4px;font-size:11px}
.kind-user .preview{color:var(--accent)}
.kind-tool .preview,.kind-meta .preview{color:var(--muted)}
.conversation{flex:1;min-width:0;overflow:auto;overflow-anchor:none;padding:12px 20px 40vh}
.load-earlier{display:block;margin:8px auto;background:var(--panel)}
.load-earlier[hidden]{display:none}
.entry{margin:10px 0;max-width:1000px}
.entry.target{box-shadow:0 0 0 2px var(--accent)}
.message{border:1px solid var(--border);border-radius:8px;overflow:hidden}
.message-head{display:flex;flex-wrap:wrap;gap:10px;align-items:baseline;font-size:12px;padding:4px 10px;background:var(--panel);border-bottom:1px solid var(--border)}
.role-user .message-head{background:var(--user)}
.message-role{font-weight:600}
.message-time,.message-meta{color:var(--muted)}
.permalink{margin-left:auto;color:var(--muted);text-decoration:none}
.message-body{padding:6px 12px;overflow-wrap:anywhere}
.not-displayed{opacity:.75}
.event{font-size:12px;color:var(--muted);padding:1px 10px;border-left:3px solid var(--border)}
.summary-box{border:1px dashed var(--border);border-radius:8px;padding:8px 12px;background:var(--panel)}
.summary-box.compaction{border-color:var(--label)}
.summary-title{font-weight:600;font-size:12px;margin-bottom:4px}
summary{cursor:pointer;font-size:12px;color:var(--muted);padding:2px 0}
.thinking{border-left:3px solid var(--border);padding-left:8px;margin:6px 0;color:var(--muted)}
.tool-call{border:1px solid var(--border);border-radius:6px;margin:6px 0;background:var(--tool)}
.tool-call.error{border-color:var(--error)}
.tool-call>summary{padding:4px 8px;font-family:ui-monospace,monospace}
.tool-summary{display:inline-flex;gap:8px;max-width:calc(100% - 20px);vertical-align:top}
.tool-name{font-weight:600;color:var(--fg);flex:none;white-space:nowrap}
.tool-args{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0;flex:0 1 auto}
.tool-status{color:var(--muted);flex:none;white-space:nowrap}
.tool-call.error .tool-status,.error-box{color:var(--error)}
.tool-body{padding:0 8px 8px}
.tool-heading{font-size:11px;text-transform:uppercase;color:var(--muted);margin-top:6px}
.tool-def{margin:8px 0}
.tool-description{color:var(--muted);font-size:12px;white-space:pre-wrap}
pre{background:var(--code);padding:8px;border-radius:6px;overflow:auto;max-height:480px;margin:4px 0;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.tool-output pre,.bash-output pre,.system-prompt pre,.fatal{white-space:pre-wrap;overflow-wrap:anywhere}
.markdown p{margin:6px 0}
.markdown code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:1px 4px;border-radius:4px}
.markdown pre code{padding:0;background:none}
.markdown blockquote{margin:6px 0;padding-left:10px;border-left:3px solid var(--border);color:var(--muted)}
.markdown table{border-collapse:collapse}
.markdown td,.markdown th{border:1px solid var(--border);padding:2px 6px}
.markdown img,.message-image{display:block;max-width:100%;max-height:480px;margin:6px 0;border:1px solid var(--border);border-radius:4px}
.note{color:var(--muted);font-size:12px}
.files-changed{border:1px solid var(--border);border-radius:8px;padding:4px 12px;background:var(--panel);font-size:13px}
.files-changed .file-list{margin:4px 0;padding-left:20px}
.diff{margin:4px 0 8px;padding:6px 8px;max-height:60vh;overflow:auto;background:var(--code);border:1px solid var(--border);border-radius:6px;font:12px/1.45 ui-monospace,monospace}
.diff span{display:block;white-space:pre}.diff .add{color:#1a7f37;background:rgba(46,160,67,.12)}.diff .del{color:var(--error);background:rgba(248,81,73,.1)}
.diff .hunk{color:var(--t)}.diff .meta{color:var(--muted);font-weight:600}
.hide-tools .tool-call,.hide-tools .role-tool{display:none}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-doctag{color:var(--k)}
.hljs-string,.hljs-regexp,.hljs-addition,.hljs-template-tag{color:var(--s)}
.hljs-title,.hljs-section,.hljs-selector-id{color:var(--t)}
.hljs-number,.hljs-literal,.hljs-symbol,.hljs-variable,.hljs-template-variable,.hljs-attr,.hljs-attribute{color:var(--n)}
.hljs-comment,.hljs-quote,.hljs-meta{color:var(--c);font-style:italic}
.hljs-type,.hljs-params,.hljs-deletion{color:var(--y)}
@media (max-width:800px){.layout{flex-direction:column}.sidebar{width:auto;height:40vh;border-right:none;border-bottom:1px solid var(--border)}}
`;
