// The dice page: a verifier written from docs/dice.md alone, in the player's own browser.
//
// It shares no code with the server: SHAKE-256 comes from js-sha3, SHA-256 and HMAC from
// js-sha256 (both vendored and pinned, static/vendor/VENDORED.md), canonical JSON is written
// here. Section numbers are docs/dice.md's. Like tests/core/docs_verifier.py it skips what needs
// the game's engine (§5 «rerun» citations: a battle fought again), and says so.
"use strict";
(function () {
  var CHAIN_DOMAIN = "voevoda/chain/v1";   // §1
  var SEALED_DOMAIN = "voevoda/sealed/v1"; // §3
  var encoder = new TextEncoder();

  var WORDS = {
    ru: {
      loading: "Загружаю выгрузку…", working: "Пересчитываю броски…", ok: "Всё сходится",
      fail: "Найдены расхождения", step: "шаг", setup: "настройка (шаг 0)", rolls: "бросков проверено",
      matched: "совпало", sealed: "скрытых (ждут секрета)", reruns: "пересчитывает только voevoda verify",
      digest: "запись", problems: "Расхождения", last_ok: "Выгрузка доходит до записи, которую вы видели: шаг ",
      last_missing: "В выгрузке нет записи, которую вы видели: её обрезали или подменили",
      proves: "доказано шагов", commitment_bad: "обязательство в выгрузке не то, что на странице игры",
      cannot: "Не удалось прочитать выгрузку: "
    },
    en: {
      loading: "Loading the export…", working: "Re-deriving the rolls…", ok: "Everything matches",
      fail: "Differences found", step: "step", setup: "setup (step 0)", rolls: "rolls checked",
      matched: "matched", sealed: "sealed (awaiting the secret)", reruns: "re-run only by voevoda verify",
      digest: "record", problems: "Differences", last_ok: "The export reaches the record you saw: step ",
      last_missing: "The record you saw is not in this export: it was cut short or changed",
      proves: "steps proved", commitment_bad: "the export's commitment is not the one on the game's page",
      cannot: "Could not read the export: "
    }
  };

  // -- bytes ---------------------------------------------------------------------------------
  function hexToBytes(hex) {
    if (!/^([0-9a-f]{2})*$/.test(hex)) throw new Error("not hex: " + hex);
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }
  function bytesToHex(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return s;
  }
  function concat(a, b) {
    var out = new Uint8Array(a.length + b.length);
    out.set(a, 0);
    out.set(b, a.length);
    return out;
  }
  function sha256Hex(bytes) { return sha256(bytes); }
  function sha256Bytes(bytes) { return new Uint8Array(sha256.array(bytes)); }

  // -- JSON as the export wrote it: numbers kept as their digits ------------------------------
  // (Python writes 3.0 for a float three; JSON.parse would give 3 and the digest would change.)
  function Num(text) { this.text = text; }
  function parseJSON(text) {
    var i = 0;
    function ws() { while (i < text.length && " \t\n\r".indexOf(text[i]) >= 0) i++; }
    function value() {
      ws();
      var c = text[i];
      if (c === "{") {
        i++; var obj = Object.create(null); ws();
        if (text[i] === "}") { i++; return obj; }
        for (;;) {
          ws(); var key = string(); ws();
          if (text[i++] !== ":") throw new Error("':' expected at " + i);
          obj[key] = value(); ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "}") { i++; return obj; }
          throw new Error("',' or '}' expected at " + i);
        }
      }
      if (c === "[") {
        i++; var arr = []; ws();
        if (text[i] === "]") { i++; return arr; }
        for (;;) {
          arr.push(value()); ws();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "]") { i++; return arr; }
          throw new Error("',' or ']' expected at " + i);
        }
      }
      if (c === '"') return string();
      if (text.startsWith("true", i)) { i += 4; return true; }
      if (text.startsWith("false", i)) { i += 5; return false; }
      if (text.startsWith("null", i)) { i += 4; return null; }
      var m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
      if (!m) throw new Error("unexpected character at " + i);
      i += m[0].length;
      return new Num(m[0]);
    }
    function string() {
      if (text[i] !== '"') throw new Error("a string expected at " + i);
      var j = i + 1, out = "";
      for (;;) {
        var k = text.indexOf('"', j), b = text.indexOf("\\", j);
        if (k < 0) throw new Error("unterminated string");
        if (b < 0 || b > k) { out += text.slice(j, k); i = k + 1; return out; }
        out += text.slice(j, b);
        var e = text[b + 1];
        if (e === "u") { out += String.fromCharCode(parseInt(text.substr(b + 2, 4), 16)); j = b + 6; }
        else { out += ({ '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" })[e]; j = b + 2; }
      }
    }
    var result = value(); ws();
    if (i !== text.length) throw new Error("text after the JSON at " + i);
    return result;
  }
  function num(v) { return v instanceof Num ? Number(v.text) : v; }

  // §6: canonical JSON, as Python's json.dumps(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
  function quote(s) {
    var out = '"';
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i), ch = s[i];
      if (ch === '"') out += '\\"';
      else if (ch === "\\") out += "\\\\";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch === "\b") out += "\\b";
      else if (ch === "\f") out += "\\f";
      else if (c < 0x20) out += "\\u" + ("000" + c.toString(16)).slice(-4);
      else out += ch;
    }
    return out + '"';
  }
  function byCodePoint(a, b) {  // Python sorts keys by code point, not by UTF-16 unit
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var p = x[i].codePointAt(0), q = y[i].codePointAt(0);
      if (p !== q) return p - q;
    }
    return x.length - y.length;
  }
  // procedure 2 writes every number as JavaScript does (240.0 -> 240); procedure 1 as the export
  // wrote it (Python's own spelling, kept by parseJSON)
  var asWritten = false;
  function canonical(v) {
    if (v === null) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (v instanceof Num) return asWritten ? v.text : String(Number(v.text));
    if (typeof v === "number") return String(v);
    if (typeof v === "string") return quote(v);
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    var keys = Object.keys(v).sort(byCodePoint);
    return "{" + keys.map(function (k) { return quote(k) + ":" + canonical(v[k]); }).join(",") + "}";
  }
  function u64(n) {
    var out = new Uint8Array(8), big = BigInt(n);
    for (var i = 7; i >= 0; i--) { out[i] = Number(big & 255n); big >>= 8n; }
    return out;
  }
  function hmac(key, message) { return new Uint8Array(sha256.hmac.array(key, message)); }

  // -- §1–§4 ----------------------------------------------------------------------------------
  // §2: stream(seed, label) = SHAKE-256(seed || UTF-8(label)); word(i): 8 bytes at 8·i, big-endian;
  // face(i, sides) = 1 + word(i) mod sides
  function faces(seed, label, sides) {
    var n = sides.length;
    var data = shake256.array(concat(seed, encoder.encode(label)), 64 * n);
    var out = new Array(n);
    for (var i = 0; i < n; i++) {
      var hi = 0, lo = 0, o = 8 * i;
      hi = ((data[o] << 24) >>> 0) + (data[o + 1] << 16) + (data[o + 2] << 8) + data[o + 3];
      lo = ((data[o + 4] << 24) >>> 0) + (data[o + 5] << 16) + (data[o + 6] << 8) + data[o + 7];
      var word = (BigInt(hi) << 32n) + BigInt(lo);
      out[i] = 1 + Number(word % BigInt(sides[i]));
    }
    return out;
  }
  // §1: s_L = HMAC-SHA-256(K, "voevoda/chain/v1"), s_(k-1) = SHA-256(s_k)
  function chainBottom(secret, length) {
    var link = new Uint8Array(sha256.hmac.array(secret, CHAIN_DOMAIN));
    for (var i = 0; i < length; i++) link = sha256Bytes(link);
    return bytesToHex(link);
  }
  // §3: procedure 1 and the setup: sealed_k = HMAC-SHA-256(K, "voevoda/sealed/v1" || k);
  // procedure 2: sealed_k = HMAC-SHA-256(K, "voevoda/sealed/v2" || k || D_k)
  function sealedSeed(secret, step, inputsDigest) {
    if (!inputsDigest) return hmac(secret, concat(encoder.encode(SEALED_DOMAIN), u64(step)));
    return hmac(secret, concat(concat(encoder.encode("voevoda/sealed/v2"), u64(step)), inputsDigest));
  }
  // §3: seed_k = HMAC-SHA-256(s_k, "voevoda/seed/v2" || D_k), D_k = SHA-256(canonical(inputs))
  function inputsDigestOf(inputs) { return sha256Bytes(encoder.encode(canonical(inputs))); }
  function stepSeed(link, inputsDigest) { return hmac(link, concat(encoder.encode("voevoda/seed/v2"), inputsDigest)); }
  // §3: a post's salt and commitment, an edit's
  function postCommitment(secret, step, attempt, player, text) {
    var salt = hmac(secret, concat(concat(concat(encoder.encode("voevoda/post/v2"), u64(step)), u64(attempt)),
                                   encoder.encode(player)));
    return bytesToHex(hmac(salt, encoder.encode(text)));
  }
  function editCommitment(secret, step, attempt, index, patch) {
    var salt = hmac(secret, concat(concat(concat(encoder.encode("voevoda/edit/v2"), u64(step)), u64(attempt)), u64(index)));
    return bytesToHex(hmac(salt, encoder.encode(canonical(patch))));
  }
  // §4: a record re-derived; [faces, agrees]
  function recordFaces(record, seed) {
    if (record.digest !== undefined) {
      var sides = [];
      record.runs.forEach(function (run) { for (var r = 0; r < num(run[1]); r++) sides.push(num(run[0])); });
      var got = faces(seed, record.label, sides);
      var digest = sha256Hex(encoder.encode(got.join(",")));
      return [got, digest === record.digest && got.length === num(record.count)];
    }
    var listed = record.faces.map(num);
    var dice = Array.isArray(record.sides) ? record.sides.map(num) : listed.map(function () { return num(record.sides); });
    var derived = faces(seed, record.label, dice);
    return [derived, derived.length === listed.length && derived.every(function (f, i) { return f === listed[i]; })];
  }
  // §6: the record's public form
  function publicForm(record, previous) {
    var body = Object.create(null);
    Object.keys(record).forEach(function (k) { if (k !== "digest" && k !== "opened") body[k] = record[k]; });
    body.dice = body.dice.filter(function (r) { return !r.sealed; });
    ["events", "actions"].forEach(function (k) {
      if (body[k]) body[k] = body[k].filter(function (e) { return e.audience.indexOf("*") >= 0; });
    });
    body.previous = previous;
    return body;
  }
  function quotedAt(data, pointer) {
    pointer.split("/").slice(1).forEach(function (part) {
      part = part.replace(/~1/g, "/").replace(/~0/g, "~");
      data = Array.isArray(data) ? data[parseInt(part, 10)] : data[part];
    });
    return (Array.isArray(data) ? data : [data]).map(num);
  }

  // §7 items 2–7, step by step; report(step line) is called after each record
  var COVERED = ["ruleset", "ruleset_version", "players", "bots", "config", "house_rules", "chain_length", "procedure"];
  function verify(exported, commitment, report) {
    var problems = [], derived = Object.create(null), stats = { rolls: 0, sealed: 0, reruns: 0, opened: 0 };
    if (exported.format !== "voevoda-export/2") return { problems: ["not an export of docs/dice.md §6"], stats: stats, digests: [] };
    var game = exported.game, published = game.commitment;
    var procedure = game.procedure === undefined ? 1 : num(game.procedure);
    asWritten = procedure < 2;
    if (commitment && commitment !== published) problems.push(WORDS_.commitment_bad);
    var secret = game.secret ? hexToBytes(game.secret) : null;
    if (secret && chainBottom(secret, num(game.chain_length)) !== published) {
      problems.push("the secret does not give the commitment");
      secret = null;
    }
    if (exported.setup.seed !== published) problems.push("setup: its seed is not the commitment");
    if (procedure >= 2) {  // §6: the setup covers the game
      var covered = exported.setup.game || {};
      COVERED.forEach(function (key) {
        var header = key === "procedure" ? game.procedure : game[key];
        if (key === "config" && secret && game.config && covered.config_commitment) return;  // a full export: the whole config
        if (canonical(header === undefined ? null : header) !== canonical(covered[key] === undefined ? null : covered[key]))
          problems.push("setup: the header's " + key + " is not what the setup's record covers");
      });
      if (secret && covered.config_commitment) {
        var key = hmac(secret, encoder.encode("voevoda/config/v2"));
        if (bytesToHex(hmac(key, encoder.encode(canonical(game.config)))) !== covered.config_commitment)
          problems.push("setup: the config does not give the setup's config_commitment");
      }
    }
    var previousDigest = "", previousLink = hexToBytes(published), digests = [];
    var records = [exported.setup].concat(exported.steps);
    records.forEach(function (record, index) {
      var number = num(record.number), where = (index ? WORDS_.step + " " + number : WORDS_.setup), mine = [];
      if (number !== index) mine.push("found where step " + index + " belongs");
      var seed = hexToBytes(record.seed), inputsDigest = null;
      if (index && procedure >= 2) {
        var link = hexToBytes(record.link || "");
        if (bytesToHex(sha256Bytes(link)) !== bytesToHex(previousLink)) mine.push("its link does not hash to the link before");
        previousLink = link;
        inputsDigest = inputsDigestOf(record.inputs);
        if (bytesToHex(stepSeed(link, inputsDigest)) !== record.seed) mine.push("its seed is not the one its link and inputs give");
        var defaulted = Object.keys(record.inputs.posts).filter(function (p) { return record.inputs.posts[p].source === "default"; });
        if (canonical(defaulted.sort(byCodePoint)) !== canonical(record.defaulted.slice().sort(byCodePoint)))
          mine.push("its inputs do not mark defaulted the seats it names");
        if (secret && record.opened) {
          Object.keys(record.opened.posts || {}).forEach(function (player) {
            var input = record.inputs.posts[player] || {};
            var attempt = input.attempt === undefined ? 0 : num(input.attempt);
            stats.opened++;
            if (postCommitment(secret, number, attempt, player, record.opened.posts[player]) !== input.commitment)
              mine.push("the post of " + player + " does not give its commitment");
          });
          (record.opened.edits || []).forEach(function (patch, i) {
            var input = (record.inputs.edits || [])[i] || {};
            stats.opened++;
            if (editCommitment(secret, number, input.attempt === undefined ? 0 : num(input.attempt), i, patch) !== input.commitment)
              mine.push("edit " + i + " does not give its commitment");
          });
        }
      } else if (index && bytesToHex(sha256Bytes(seed)) !== bytesToHex(previousLink)) {
        mine.push("its seed does not hash to the seed before");
      }
      if (index && procedure < 2) previousLink = seed;
      var digest = sha256Hex(encoder.encode(canonical(publicForm(record, previousDigest))));
      if (digest !== record.digest) mine.push("the digest does not match");
      previousDigest = record.digest;
      digests.push(record.digest);
      var rolls = 0, sealed = 0;
      record.dice.forEach(function (dice) {
        if (dice.sealed && !secret) { sealed += dice.faces ? dice.faces.length : num(dice.count); return; }
        var key = dice.sealed ? sealedSeed(secret, number, index ? inputsDigest : null) : seed;
        var got = recordFaces(dice, key);
        rolls += got[0].length;
        if (!got[1]) mine.push(dice.label + " does not re-derive");
        derived[number + "\u0000" + dice.label + "\u0000" + (dice.sealed ? 1 : 0)] = got[0];
      });
      (record.events || []).forEach(function (event) {
        var cited = Object.create(null);
        (event.data.dice_refs || []).forEach(function (ref) {
          if (ref.rerun !== undefined) { stats.reruns++; return; }
          var source = ref.step !== undefined ? num(ref.step) : number, isSealed = !!ref.sealed;
          if (cited[ref.field] === null || (isSealed && !secret)) { cited[ref.field] = null; return; }
          var got = derived[source + "\u0000" + ref.label + "\u0000" + (isSealed ? 1 : 0)];
          var from = num(ref.from), count = num(ref.count);
          if (!got || source > number || got.length < from + count) {
            mine.push("event " + event.kind + " cites dice that were not drawn");
            cited[ref.field] = null;
            return;
          }
          cited[ref.field] = (cited[ref.field] || []).concat(got.slice(from, from + count));
        });
        Object.keys(cited).forEach(function (field) {
          var expected = cited[field];
          if (expected === null) return;
          var quoted = quotedAt(event.data, field);
          if (quoted.length !== expected.length || quoted.some(function (f, i) { return f !== expected[i]; }))
            mine.push("event " + event.kind + " quotes other faces at " + field);
        });
      });
      stats.rolls += rolls;
      stats.sealed += sealed;
      mine.forEach(function (p) { problems.push(where + ": " + p); });
      report({ where: where, number: number, rolls: rolls, sealed: sealed, digest: record.digest, ok: mine.length === 0 });
    });
    return { problems: problems, stats: stats, digests: digests, procedure: procedure };
  }

  // -- the page --------------------------------------------------------------------------------
  var WORDS_ = WORDS.ru;
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function run(form, text) {
    var out = document.getElementById("dice-result");
    out.textContent = "";
    var exported;
    try { exported = parseJSON(text); } catch (e) { out.appendChild(el("p", WORDS_.cannot + e.message, "fail")); return; }
    var table = el("table"), head = el("tr");
    [WORDS_.step, WORDS_.rolls, WORDS_.sealed, WORDS_.digest, ""].forEach(function (h) { head.appendChild(el("th", h)); });
    table.appendChild(head);
    var commitment = (document.getElementById("commitment") || {}).textContent || null;
    var result = verify(exported, commitment, function (row) {
      var tr = el("tr");
      tr.setAttribute("data-step", String(row.number));
      tr.appendChild(el("td", row.where));
      tr.appendChild(el("td", String(row.rolls)));
      tr.appendChild(el("td", String(row.sealed)));
      tr.appendChild(el("td", row.digest.slice(0, 16) + "…"));
      tr.appendChild(el("td", row.ok ? "✓ " + WORDS_.matched : "✗", row.ok ? "ok" : "fail"));
      table.appendChild(tr);
    });
    var verdict = el("p", result.problems.length ? WORDS_.fail : WORDS_.ok, result.problems.length ? "fail verdict" : "ok verdict");
    verdict.id = "dice-verdict";
    out.appendChild(verdict);
    out.appendChild(el("p", WORDS_.rolls + ": " + result.stats.rolls + "; " + WORDS_.sealed + ": " + result.stats.sealed +
      (result.stats.reruns ? "; " + result.stats.reruns + " — " + WORDS_.reruns : "")));
    var last = (form.querySelector("#last-digest").value || "").trim().toLowerCase();
    if (last) {
      var at = result.digests.indexOf(last);
      var line = at >= 0 ? el("p", WORDS_.last_ok + at + "; " + WORDS_.proves + ": " + at, "ok")
                         : el("p", WORDS_.last_missing, "fail");
      line.id = "dice-last";
      out.appendChild(line);
    }
    out.appendChild(table);
    if (result.problems.length) {
      out.appendChild(el("h3", WORDS_.problems));
      var list = el("ul");
      result.problems.forEach(function (p) { list.appendChild(el("li", p, "fail")); });
      out.appendChild(list);
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("dice-form");
    if (!form) return;
    WORDS_ = WORDS[form.getAttribute("data-lang")] || WORDS.ru;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var out = document.getElementById("dice-result");
      var file = document.getElementById("export-file").files[0];
      out.textContent = WORDS_.loading;
      if (file) {
        file.text().then(function (text) { setTimeout(function () { run(form, text); }, 0); });
        return;
      }
      fetch(form.getAttribute("data-export"), { credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (text) { out.textContent = WORDS_.working; setTimeout(function () { run(form, text); }, 0); })
        .catch(function (e) { out.textContent = WORDS_.cannot + e.message; });
    });
  });
  window.voevodaDice = {
    verify: verify, parseJSON: parseJSON, faces: faces,
    canonical: function (v) { asWritten = false; return canonical(v); },
    postCommitment: function (secretHex, step, attempt, player, text) {
      return postCommitment(hexToBytes(secretHex), step, attempt, player, text);
    },
    seed: function (linkHex, inputs) { asWritten = false; return bytesToHex(stepSeed(hexToBytes(linkHex), inputsDigestOf(inputs))); },
    chainBottom: function (secretHex, length) { return chainBottom(hexToBytes(secretHex), length); }
  };
})();
