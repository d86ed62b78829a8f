// The small page a transfer link opens, as three static resources (no inline script or style, so the
// strict Content-Security-Policy holds). The script reads the token from the URL fragment (never
// sent to the server), removes it from the address bar, and calls /transfer/info, /transfer/download
// or /transfer/upload with it in an Authorization header. Every string from the server is shown
// with textContent, never as HTML.

export const TRANSFER_CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Vault MCP Server: file transfer</title>
<link rel="stylesheet" href="/transfer/app.css">
<script src="/transfer/app.js" defer></script>
</head>
<body>
<main>
<h1>Vault file transfer</h1>
<p id="status">Checking the link…</p>
<section id="download" hidden>
<p>File: <code id="d-path"></code> (<span id="d-size"></span>)</p>
<button id="d-go" type="button">Save the file</button>
</section>
<section id="upload" hidden>
<p>Destination in the vault: <code id="u-path"></code></p>
<p id="u-note"></p>
<input id="u-file" type="file">
<button id="u-go" type="button" disabled>Upload</button>
</section>
<p id="result" role="status"></p>
<p class="small">The link works only from this computer and only until it expires. With a terminal: <code>curl -H "Authorization: Bearer &lt;token&gt;" …/transfer/download</code> or <code>curl -T FILE -H "Authorization: Bearer &lt;token&gt;" …/transfer/upload</code>.</p>
</main>
</body>
</html>
`;

export const PAGE_CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f6f8;color:#222}
main{max-width:40rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border-radius:10px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.3rem;margin-top:0}code{background:#eee;padding:0 .3em;border-radius:3px;word-break:break-all}
button{font:inherit;padding:.4rem 1rem;margin:.5rem 0;cursor:pointer}.small{color:#666;font-size:.85rem}
.error{color:#a00}.ok{color:#070}
`;

export const PAGE_JS = `(function () {
  'use strict';
  var KEY = 'vmcp-transfer-token';
  var $ = function (id) { return document.getElementById(id); };
  var hash = new URLSearchParams(location.hash.slice(1)).get('t');
  var token = hash || sessionStorage.getItem(KEY);
  if (hash) { sessionStorage.setItem(KEY, hash); history.replaceState(null, '', location.pathname); }
  var say = function (el, text, cls) { el.textContent = text; el.className = cls || ''; };
  var auth = function () { return { Authorization: 'Bearer ' + token }; };
  var size = function (n) { return n < 1024 ? n + ' bytes' : n < 1048576 ? (n / 1024).toFixed(1) + ' KB' : (n / 1048576).toFixed(1) + ' MB'; };
  var dead = 'This link is unknown, expired, already used or revoked. Ask the agent for a new one.';
  if (!token) { say($('status'), 'This page needs the full link, including the part after "#".', 'error'); return; }
  fetch('/transfer/info', { headers: auth(), cache: 'no-store' }).then(function (r) {
    if (!r.ok) throw new Error(dead);
    return r.json();
  }).then(function (info) {
    var until = 'The link expires at ' + new Date(info.expires_at).toLocaleTimeString() + '.';
    if (info.kind === 'download') {
      say($('status'), until);
      $('d-path').textContent = info.path;
      $('d-size').textContent = size(info.size);
      $('download').hidden = false;
      $('d-go').addEventListener('click', function () {
        say($('result'), 'Downloading…');
        fetch('/transfer/download', { headers: auth(), cache: 'no-store' }).then(function (r) {
          if (!r.ok) throw new Error(r.status === 404 ? dead : 'The download failed (HTTP ' + r.status + ').');
          return r.blob();
        }).then(function (blob) {
          var a = document.createElement('a');
          a.href = URL.createObjectURL(blob);
          a.download = info.name;
          document.body.appendChild(a);
          a.click();
          a.remove();
          setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
          say($('result'), 'Saved ' + info.name + '.', 'ok');
        }).catch(function (e) { say($('result'), e.message, 'error'); });
      });
    } else {
      say($('status'), until + ' It can be used for one upload.');
      $('u-path').textContent = info.path;
      $('u-note').textContent = (info.overwrite ? 'An existing file there will be replaced. ' : 'An existing file there is never replaced. ') + 'Largest file: ' + size(info.max_bytes) + '.';
      $('upload').hidden = false;
      $('u-file').addEventListener('change', function () { $('u-go').disabled = !$('u-file').files.length; });
      $('u-go').addEventListener('click', function () {
        var f = $('u-file').files[0];
        if (!f) return;
        if (f.size > info.max_bytes) { say($('result'), 'That file is ' + size(f.size) + ', over the ' + size(info.max_bytes) + ' limit.', 'error'); return; }
        $('u-go').disabled = true;
        say($('result'), 'Uploading…');
        var h = auth();
        h['Content-Type'] = f.type || 'application/octet-stream';
        fetch('/transfer/upload', { method: 'PUT', headers: h, body: f, cache: 'no-store' }).then(function (r) {
          return r.json().catch(function () { return {}; }).then(function (body) {
            if (r.status === 404) throw new Error(dead);
            if (!r.ok) { $('u-go').disabled = false; throw new Error(body.error || ('The upload failed (HTTP ' + r.status + ').')); }
            return body;
          });
        }).then(function (body) {
          sessionStorage.removeItem(KEY);
          say($('result'), 'Uploaded ' + size(body.size) + ' to ' + body.path + '. You can close this page.', 'ok');
        }).catch(function (e) { say($('result'), e.message, 'error'); });
      });
    }
  }).catch(function (e) { say($('status'), e.message || dead, 'error'); });
})();
`;
