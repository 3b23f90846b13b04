// Re-derives the test vectors of docs/dice.md («Test vectors») with nothing but Node's crypto and
// JSON.stringify, as a browser's verifier would from the document alone (run by
// tests/core/test_dice_procedure.py when Node is installed): node check_vectors.mjs VECTORS.json
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";

const v = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const hex = (b) => Buffer.from(b).toString("hex");
const bytes = (h) => Buffer.from(h, "hex");
const u64 = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
const hmac = (key, ...parts) => createHmac("sha256", key).update(Buffer.concat(parts.map((p) => typeof p === "string" ? Buffer.from(p, "utf-8") : p))).digest();
const sha256 = (b) => createHash("sha256").update(b).digest();
const byCodePoint = (a, b) => { const x = [...a].map((c) => c.codePointAt(0)), y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i]; return x.length - y.length; };
const canonical = (value) => JSON.stringify(value, function (key, val) {
  if (val && typeof val === "object" && !Array.isArray(val)) {
    return Object.fromEntries(Object.keys(val).sort(byCodePoint).map((k) => [k, val[k]]));
  }
  return val;
});
const problems = [];
const expect = (what, got, want) => { if (got !== want) problems.push(`${what}: ${got} != ${want}`); };

const K = bytes(v.secret);
let link = hmac(K, "voevoda/chain/v1");
const links = {};
for (let k = v.chain_length; k >= 0; k--) { if (k <= 2) links[k] = hex(link); if (k) link = sha256(link); }
for (const k of ["0", "1", "2"]) expect(`link ${k}`, links[k], v.links[k]);
const stream = createHash("shake256", { outputLength: 8 * v.roll.sides.length }).update(Buffer.concat([bytes(v.roll.seed), Buffer.from(v.roll.label, "utf-8")])).digest();
expect("word 0", hex(stream.subarray(0, 8)), v.roll.word_0);
v.roll.sides.forEach((die, i) => expect(`face ${i}`, Number(1n + stream.readBigUInt64BE(8 * i) % BigInt(die)), v.roll.faces[i]));
expect("canonical", canonical(v.canonical.value), v.canonical.text);
for (const p of v.posts) {
  const salt = hmac(K, "voevoda/post/v2", u64(p.step), u64(p.attempt), p.player);
  expect("post salt", hex(salt), p.salt);
  expect("post commitment", hex(hmac(salt, p.text)), p.commitment);
}
const e = v.edit;
const esalt = hmac(K, "voevoda/edit/v2", u64(e.step), u64(e.attempt), u64(e.index));
expect("edit salt", hex(esalt), e.salt);
expect("edit commitment", hex(hmac(esalt, canonical(e.patch))), e.commitment);
const D = sha256(Buffer.from(canonical(v.inputs), "utf-8"));
expect("inputs digest", hex(D), v.inputs_digest);
expect("seed", hex(hmac(bytes(v.links["1"]), "voevoda/seed/v2", D)), v.seed);
expect("sealed", hex(hmac(K, "voevoda/sealed/v2", u64(1), D)), v.sealed);
expect("bot", hex(hmac(K, "voevoda/bot/v2", u64(1))), v.bot);
expect("config", hex(hmac(hmac(K, "voevoda/config/v2"), canonical(v.config))), v.config_commitment);
const digest = (record, previous) => { const body = { ...record, previous }; delete body.digest; return hex(sha256(Buffer.from(canonical(body), "utf-8"))); };
expect("setup digest", digest(v.setup, ""), v.setup_digest);
expect("step digest", digest(v.step, v.setup_digest), v.step_digest);
console.log(problems.length ? problems.join("\n") : "all vectors check out");
process.exit(problems.length ? 1 : 0);
