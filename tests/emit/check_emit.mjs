// partsim sweep --emit, checked as the schedulers would read it, offline:
// - the Kubernetes Job (--emit k8s) parsed as YAML 1.1 (what Kubernetes' YAML reader
//   speaks: `on` is a boolean there) and validated against Kubernetes' batch/v1 Job schema
//   by kubernetes-models' validate();
// - the Slurm array script (--emit slurm) checked by `bash -n`.
// Usage: node check_emit.mjs PARTSIM SOURCE_DIR. Exit 0 when every case passes.
// Its npm packages are installed into tests/emit/node_modules by
// `scripts/install-deps.sh test` (make test).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

let Job, YAML;
try {
  ({ Job } = await import("kubernetes-models/batch/v1/Job"));
  YAML = await import("yaml");
} catch (e) {
  console.error(`check_emit: ${e.message}\n  install the test's npm packages: bash scripts/install-deps.sh test (or npm ci in tests/emit)`);
  process.exit(1);
}

const [partsim, source] = process.argv.slice(2);
if (!partsim || !source) {
  console.error("usage: node check_emit.mjs PARTSIM SOURCE_DIR");
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "partsim-emit-"));
let passed = 0, failed = 0;
const fail = (what, why) => {
  failed++;
  console.error(`FAIL ${what}: ${why}`);
};

function emit(args) {
  return execFileSync(partsim, ["sweep", ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

// A sweep whose words look like other YAML types: a name and a store that read as numbers
// or booleans, an image and a claim that do too.
const base = path.join(source, "scenarios/kip794/slow-broker.yaml");
const sweeps = {
  "plain.yaml": `scenario: ${base}\nset: {run.records: 500}\ngrid:\n  workload.arrivals.rate: [300, 3000]\n`,
  "on.yaml": `scenario: ${base}\nname: "on"\nset: {run.records: 500}\npartitioners: [builtin, sticky-kip480]\ngrid:\n  linger.ms: [0, 5]\n`,
};
const cases = [];
for (const [file, text] of Object.entries(sweeps)) fs.writeFileSync(path.join(dir, file), text);
cases.push({ what: "plain sweep, 4 shards", sweep: "plain.yaml", args: ["--shards", "4", "--image", "registry.example/partsim:1", "--volume", "stores"] });
cases.push({ what: "numbers and booleans as words", sweep: "on.yaml",
  args: ["--shards", "12", "--image", "5", "--volume", "123", "--store", "true-%a.sqlite", "--partsim", "yes", "--allow-large"] });
cases.push({ what: "the shipped kip794 sweep", sweep: path.join(source, "scenarios/sweeps/kip794.yaml"), args: ["--shards", "3", "--image", "i", "--volume", "v"] });

for (const c of cases) {
  const sweep = path.isAbsolute(c.sweep) ? c.sweep : path.join(dir, c.sweep);
  let text;
  try {
    text = emit([sweep, "--emit", "k8s", ...c.args]);
  } catch (e) {
    fail(`k8s: ${c.what}`, `partsim failed: ${e.stderr || e.message}`);
    continue;
  }
  const docs = YAML.parseAllDocuments(text, { version: "1.1" });
  if (docs.length !== 1 || docs[0].errors.length) {
    fail(`k8s: ${c.what}`, `not one YAML document: ${docs.map((d) => d.errors.join("; ")).join(" | ")}`);
    continue;
  }
  const obj = docs[0].toJS();
  try {
    new Job(obj).validate();
  } catch (e) {
    fail(`k8s: ${c.what}`, `Kubernetes' schema refuses the Job: ${e.message}\n${text}`);
    continue;
  }
  // What the pod runs is what was asked for, word by word, each a string.
  const command = obj.spec.template.spec.containers[0].command;
  const shards = c.args[c.args.indexOf("--shards") + 1];
  const at = command.indexOf("--shards");
  if (at < 0 || command[at + 1] !== shards) {
    fail(`k8s: ${c.what}`, `command does not hold --shards "${shards}": ${JSON.stringify(command)}`);
    continue;
  }
  if (obj.spec.completions !== Number(shards) || obj.spec.completionMode !== "Indexed") {
    fail(`k8s: ${c.what}`, `completions ${obj.spec.completions}, mode ${obj.spec.completionMode}`);
    continue;
  }
  const image = c.args[c.args.indexOf("--image") + 1];
  const claim = c.args[c.args.indexOf("--volume") + 1];
  if (obj.spec.template.spec.containers[0].image !== image ||
      obj.spec.template.spec.volumes[0].persistentVolumeClaim.claimName !== claim) {
    fail(`k8s: ${c.what}`, `image or claim changed on the way: ${JSON.stringify(obj.spec.template.spec)}`);
    continue;
  }
  passed++;
}

// The Slurm script: bash -n (syntax only: it runs nothing).
for (const c of cases.slice(0, 2)) {
  const sweep = path.join(dir, c.sweep);
  const out = path.join(dir, `${c.sweep}.sbatch`);
  try {
    emit([sweep, "--emit", "slurm", "--shards", "4", "--store", path.join(dir, "stores it's", "shard-%a.sqlite"), "--sbatch", "--time=30", "--out", out]);
    execFileSync("bash", ["-n", out], { stdio: ["ignore", "pipe", "pipe"] });
    passed++;
  } catch (e) {
    fail(`slurm: ${c.what}`, `${e.stderr || e.message}`);
  }
}

// The check itself refuses what Kubernetes refuses: a command with a bare integer.
try {
  new Job({ metadata: { name: "x" }, spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "i", command: ["partsim", 4] }] } } } }).validate();
  fail("self-check", "a command holding the integer 4 was accepted");
} catch {
  passed++;
}

fs.rmSync(dir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
