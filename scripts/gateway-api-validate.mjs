// Validates Gateway API objects (gateway.networking.k8s.io) strictly:
//   1. against the API's own schema, as the npm package
//      @kubernetes-models/gateway-api compiles it from the Gateway API Go
//      types (required fields, types, enums, patterns, lengths);
//   2. for unknown fields, which that schema lets through: every key of
//      every object must be a field of its type, as the package's type
//      declarations (.d.ts) list them, so a typo such as `backendRef` or
//      `sectionname` is an error, as `kubectl apply --validate=strict`
//      would make it.
//
// Usage: node scripts/gateway-api-validate.mjs MODULES_DIR FILE.yaml...
//   MODULES_DIR: a node_modules folder holding @kubernetes-models/gateway-api
//   FILE.yaml:   multi-document YAML as JSON lines (one object per line),
//                which scripts/k8s-validate.sh writes; other groups' objects
//                are refused, so nothing is skipped silently.
// Exits 1 on any error, naming the file, the object and the field.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ...files] = process.argv.slice(2);
if (!modules || files.length === 0) {
  console.error("usage: gateway-api-validate.mjs MODULES_DIR FILE.jsonl...");
  process.exit(2);
}
const packages = path.join(modules, "@kubernetes-models");
const GROUP = "gateway.networking.k8s.io";

// ---- the fields of every interface the type declarations define ----------
// Each file declares `export interface IHTTPRouteSpec extends IParent {`
// with one `"field"?: Type;` line per field, and exports it under its
// long name too (`export type { IHTTPRouteSpec as IIoK8s...HTTPRouteSpec }`).
const declared = new Map(); // local name -> { fields, parents }
const aliases = new Map(); // long name -> local name
function scan(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      scan(file);
    } else if (entry.name.endsWith(".d.ts")) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(/^export interface (\w+)(?: extends ([\w, <>]+))? \{\n([\s\S]*?)^\}/gm)) {
        const fields = new Map();
        for (const line of match[3].matchAll(/^ {4}"([^"]+)"\??: (.*?);?$/gm)) fields.set(line[1], line[2]);
        const parents = (match[2] || "").split(",").map((name) => name.trim()).filter(Boolean);
        declared.set(match[1], { fields, parents });
      }
      for (const match of text.matchAll(/^export type \{ (\w+) as (\w+)/gm)) aliases.set(match[2], match[1]);
    }
  }
}
scan(path.join(packages, "gateway-api", GROUP, "v1"));
scan(path.join(packages, "apimachinery", "apis", "meta", "v1"));

/** The fields of a declared interface, its parents' included; none for a
 * map, a primitive or an alias of one. */
function fieldsOf(type) {
  const found = declared.get(aliases.get(type) ?? type);
  if (!found) return null;
  const fields = new Map(found.fields);
  for (const parent of found.parents) {
    for (const [key, value] of fieldsOf(parent) ?? []) if (!fields.has(key)) fields.set(key, value);
  }
  return fields;
}

/** Unknown keys under `value`, whose declared type is `type`. */
function unknownFields(value, type, where, found) {
  if (value === null || typeof value !== "object") return;
  const array = /^Array<(\w+)>$/.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((item, i) => unknownFields(item, array[1], `${where}[${i}]`, found));
    return;
  }
  const fields = fieldsOf(type);
  if (!fields || Array.isArray(value)) return; // a map, a primitive alias: no fixed keys
  for (const [key, item] of Object.entries(value)) {
    if (!fields.has(key)) {
      found.push(`${where}.${key}: unknown field (${type.replace(/^I(IoK8sSigsGatewayApiApisV1)?/, "")} has ${[...fields.keys()].join(", ")})`);
    } else {
      unknownFields(item, fields.get(key), `${where}.${key}`, found);
    }
  }
}

// ---- each object ---------------------------------------------------------
let failures = 0;
let checked = 0;
for (const file of files) {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((line) => line.trim());
  for (const line of lines) {
    const doc = JSON.parse(line);
    const name = `${path.basename(file)}: ${doc.kind}/${doc.metadata?.name}`;
    const [group, version] = String(doc.apiVersion).split("/");
    if (group !== GROUP || version !== "v1") {
      console.error(`FAIL ${name}: ${doc.apiVersion} is not ${GROUP}/v1, the only version checked here`);
      failures++;
      continue;
    }
    const modelFile = path.join(packages, "gateway-api", GROUP, version, `${doc.kind}.js`);
    if (!fs.existsSync(modelFile)) {
      console.error(`FAIL ${name}: ${GROUP}/${version} has no kind ${doc.kind}`);
      failures++;
      continue;
    }
    const Model = (await import(pathToFileURL(modelFile)))[doc.kind];
    const errors = [];
    try {
      new Model(doc).validate();
    } catch (error) {
      errors.push(error.message);
    }
    unknownFields(doc, `I${doc.kind}`, "", errors);
    checked++;
    if (errors.length) {
      failures++;
      for (const error of errors) console.error(`FAIL ${name}: ${error}`);
    } else {
      console.log(`PASS ${name}`);
    }
  }
}
if (checked === 0 && failures === 0) {
  console.error("FAIL: no Gateway API objects given");
  process.exit(1);
}
process.exit(failures ? 1 : 0);
