//! cmx-oracle: answers generated cmx-core cases with the Rust reference crate.
//!
//! Reads `{"cases": [{"id", "op", ...}]}` on stdin and prints
//! `{"answers": {id: answer}}` on stdout. Bytes travel as lowercase hex so that
//! non-UTF-8 names and contents survive JSON. Every answer is produced by calling
//! the reference crate's public API (or, for `trim` and `json-escape`, the Rust
//! standard library / serde_json calls the crate itself relies on); nothing here
//! re-implements a rule under test.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, TimeZone, Utc};
use cmx_core::agent;
use cmx_core::checksum;
use cmx_core::frontmatter;
use cmx_core::gateway::real::RealFilesystem;
use cmx_core::lockfile;
use cmx_core::platform::Platform;
use cmx_core::skill_fs::{self, SkillFile};
use cmx_core::skill_install::{
    BundledSkill, InstallPlan, Report, Scope, SkillInstaller, TargetAction, ToolIdentity,
};
use cmx_core::test_support::TestContext;
use cmx_core::types::{ArtifactKind, InstallScope};
use serde_json::{Map, Value, json};

static SCRATCH_COUNTER: AtomicUsize = AtomicUsize::new(0);

fn main() {
    let input: Value = serde_json::from_reader(std::io::stdin()).expect("stdin is JSON");
    let cases = input["cases"].as_array().expect("cases is a list");
    let mut answers = Map::new();
    for case in cases {
        let id = case["id"].as_str().expect("case id").to_string();
        let answer = match case["op"].as_str().expect("case op") {
            "guard" => guard(case),
            "reconcile" => reconcile(case),
            "agent-transform" => agent_transform(case),
            "trim" => trim(case),
            "whitespace-set" => whitespace_set(),
            "json-escape" => json_escape(case),
            "checksum-tree" => checksum_tree(case),
            "checksum-files" => checksum_files(case),
            "lock-roundtrip" => lock_roundtrip(case),
            "e2e" => e2e(case),
            other => panic!("unknown op {other}"),
        };
        answers.insert(id, answer);
    }
    println!("{}", serde_json::to_string_pretty(&json!({ "answers": answers })).unwrap());
}

// --- encoding helpers -------------------------------------------------------

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

fn field_bytes(case: &Value, key: &str) -> Vec<u8> {
    unhex(case[key].as_str().unwrap_or_else(|| panic!("hex field {key}")))
}

fn field_str<'a>(case: &'a Value, key: &str) -> &'a str {
    case[key].as_str().unwrap_or_else(|| panic!("string field {key}"))
}

fn fixed_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 7, 5, 12, 0, 0).unwrap()
}

fn scratch_dir() -> PathBuf {
    let n = SCRATCH_COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("cmx-oracle-{}-{n}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// --- actions ------------------------------------------------------------------

fn action_json(action: &TargetAction) -> Value {
    let (kind, from, installed) = match action {
        TargetAction::Install => ("install", None, None),
        TargetAction::Skip => ("skip", None, None),
        TargetAction::Update { from } => ("update", from.clone(), None),
        TargetAction::DriftedSkip { installed } => ("drifted-skip", None, Some(installed.clone())),
        TargetAction::RefuseNewer { installed } => ("refuse-newer", None, Some(installed.clone())),
        TargetAction::Downgrade { from } => ("downgrade", Some(from.clone()), None),
        _ => ("unknown", None, None),
    };
    json!({
        "kind": kind,
        "from": from,
        "installed": installed,
        "will_write": action.will_write(),
        "blocked": action.is_blocked(),
    })
}

const GUARD_TOOL: &str = "fixture-tool";

fn guard_bundle() -> BundledSkill {
    BundledSkill::from_files(vec![
        SkillFile::text("SKILL.md", "---\nname: fixture-tool\n---\n# Fixture\n"),
        SkillFile::text("scripts/tool.py", "print('fixture')\n"),
    ])
}

/// One version-guard decision through `SkillInstaller::plan` on the in-memory fs.
fn guard(case: &Value) -> Value {
    let bundled = field_str(case, "bundled_version");
    let test = TestContext::at(fixed_time());
    let skill = guard_bundle();
    let files = frontmatter::reconcile_skill_version(&skill.files, bundled);
    let sum = skill_fs::checksum_bundled(&files);
    let dest = test
        .paths
        .install_dir(ArtifactKind::Skill, InstallScope::Global)
        .unwrap()
        .join(GUARD_TOOL);
    if case["tracked"].as_bool().unwrap() {
        let mut entry = json!({
            "type": "skill",
            "installed_at": "2026-07-05T12:00:00+00:00",
            "source": {"repo": "bundled:fixture-tool", "path": "skills/fixture-tool"},
            "source_checksum": sum,
            "installed_checksum": sum,
        });
        if let Some(v) = case["installed_version"].as_str() {
            entry["version"] = json!(v);
        }
        let lock = json!({"version": 1, "packages": {GUARD_TOOL: entry}});
        test.fs.add_file(
            test.paths.lock_path(InstallScope::Global),
            serde_json::to_vec_pretty(&lock).unwrap(),
        );
    }
    match field_str(case, "disk_state") {
        "missing" => {}
        "matches-source" => skill_fs::write_skill_files(&dest, &files, &test.fs).unwrap(),
        "drifted" => {
            let mut drifted = files.clone();
            drifted[1].bytes = b"print('drifted local edit')\n".to_vec();
            skill_fs::write_skill_files(&dest, &drifted, &test.fs).unwrap();
        }
        other => panic!("disk_state {other}"),
    }
    let force = case["force"].as_bool().unwrap();
    let installer = SkillInstaller::new(ToolIdentity::new(GUARD_TOOL, bundled));
    match installer.plan(&skill, Scope::Global, force, &test.ctx()) {
        Ok(plan) => action_json(&plan.targets[0].action),
        Err(err) => json!({"error": err.to_string()}),
    }
}

// --- pure text functions ------------------------------------------------------

fn reconcile(case: &Value) -> Value {
    let files = vec![SkillFile {
        rel_path: PathBuf::from("SKILL.md"),
        bytes: field_bytes(case, "content_hex"),
    }];
    let version = field_str(case, "version");
    let once = frontmatter::reconcile_skill_version(&files, version);
    let twice = frontmatter::reconcile_skill_version(&once, version);
    json!({
        "output_hex": hex(&once[0].bytes),
        "idempotent": once[0].bytes == twice[0].bytes,
    })
}

fn agent_transform(case: &Value) -> Value {
    let name = field_str(case, "artifact_name");
    let version = field_str(case, "version");
    let markdown = field_str(case, "markdown");
    let reconciled = frontmatter::reconcile_document_version(markdown, version);
    let codex = agent::markdown_to_codex_toml(&reconciled, name);
    json!({
        "reconciled_markdown": reconciled,
        "codex_toml": codex,
        "source_checksum": checksum::checksum_bytes(reconciled.as_bytes()),
        "codex_checksum": checksum::checksum_bytes(codex.as_bytes()),
    })
}

fn trim(case: &Value) -> Value {
    let text = field_str(case, "text");
    json!({
        "trim": text.trim(),
        "trim_start": text.trim_start(),
        "trim_end": text.trim_end(),
    })
}

/// Every scalar value `str::trim` removes, as inclusive `[first, last]` ranges.
fn whitespace_set() -> Value {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for cp in 0..=0x10FFFFu32 {
        let Some(ch) = char::from_u32(cp) else { continue };
        if ch.to_string().trim().is_empty() {
            match ranges.last_mut() {
                Some((_, last)) if *last + 1 == cp => *last = cp,
                _ => ranges.push((cp, cp)),
            }
        }
    }
    json!({"ranges": ranges})
}

fn json_escape(case: &Value) -> Value {
    let mut out = Map::new();
    for cp in case["code_points"].as_array().unwrap() {
        let cp = u32::try_from(cp.as_u64().unwrap()).unwrap();
        let ch = char::from_u32(cp).unwrap();
        out.insert(cp.to_string(), json!(serde_json::to_string(&ch.to_string()).unwrap()));
    }
    json!({"escapes": out})
}

fn checksum_files(case: &Value) -> Value {
    let files: Vec<SkillFile> = case["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| SkillFile::text(field_str(f, "path"), field_str(f, "content_utf8")))
        .collect();
    let order: Vec<String> = skill_fs::canonical_files(&files)
        .iter()
        .map(|f| f.rel_path.to_string_lossy().into_owned())
        .collect();
    json!({"sha256": skill_fs::checksum_bundled(&files), "canonical_order": order})
}

// --- real filesystem: checksum_dir over generated trees ---------------------------

fn build_tree(root: &Path, entries: &[Value]) {
    for entry in entries {
        let rel = OsStr::from_bytes(&field_bytes(entry, "path_hex")).to_owned();
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        match field_str(entry, "kind") {
            "file" => std::fs::write(&path, field_bytes(entry, "content_hex")).unwrap(),
            "dir" => std::fs::create_dir_all(&path).unwrap(),
            "symlink" => {
                let target = OsStr::from_bytes(&field_bytes(entry, "target_hex")).to_owned();
                std::os::unix::fs::symlink(target, &path).unwrap();
            }
            other => panic!("entry kind {other}"),
        }
    }
}

fn checksum_tree(case: &Value) -> Value {
    let scratch = scratch_dir();
    let root = scratch.join("tree");
    std::fs::create_dir_all(&root).unwrap();
    build_tree(&root, case["entries"].as_array().unwrap());
    let answer = match checksum::checksum_dir(&root, &RealFilesystem) {
        Ok(sum) => json!({"checksum": sum}),
        Err(err) => json!({"error": err.to_string().replace(scratch.to_str().unwrap(), "<tmp>")}),
    };
    std::fs::remove_dir_all(&scratch).unwrap();
    answer
}

// --- lockfile load → save ------------------------------------------------------------

fn lock_roundtrip(case: &Value) -> Value {
    let scratch = scratch_dir();
    let path = scratch.join("cmx-lock.json");
    std::fs::write(&path, field_bytes(case, "text_hex")).unwrap();
    let answer = match lockfile::load_from(&path, &RealFilesystem) {
        Ok(lock) => {
            let out = scratch.join("out").join("cmx-lock.json");
            lockfile::save_to(&lock, &out, &RealFilesystem).unwrap();
            json!({"output_hex": hex(&std::fs::read(&out).unwrap())})
        }
        Err(err) => json!({"error": err.to_string().replace(scratch.to_str().unwrap(), "<tmp>")}),
    };
    std::fs::remove_dir_all(&scratch).unwrap();
    answer
}

// --- install end to end on the in-memory fs --------------------------------------------

fn fixture_to_fake(path: &str) -> PathBuf {
    match path.strip_prefix("project/") {
        Some(rel) => PathBuf::from(rel),
        None => PathBuf::from("/").join(path),
    }
}

/// The path's components joined with `/` (lossy), without the root.
fn joined(path: &Path) -> String {
    path.components()
        .filter(|c| !matches!(c, Component::RootDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Where a fake-fs path lands in a fixture tree: absolute under the root, relative under `project/`.
fn fake_to_fixture(path: &Path) -> String {
    if path.is_absolute() { joined(path) } else { format!("project/{}", joined(path)) }
}

/// A path as reports show it: absolute with one leading `/`, local ones relative.
fn report_path(path: &Path) -> String {
    if path.is_absolute() { format!("/{}", joined(path)) } else { joined(path) }
}

fn plan_json(plan: &InstallPlan) -> Value {
    json!({
        "blocked": plan.is_blocked(),
        "cmx_present": plan.cmx_present,
        "scope": plan.scope.label(),
        "source_checksum": plan.source_checksum,
        "targets": plan.targets.iter().map(|t| json!({
            "platform": t.platform.to_string(),
            "dest_dir": report_path(&t.dest_dir),
            "action": action_json(&t.action),
            "cmx_managed": t.cmx_managed,
        })).collect::<Vec<_>>(),
    })
}

fn report_json(report: &Report) -> Value {
    json!({
        "tool_name": report.tool.name,
        "scope": report.scope.label(),
        "source_registered": report.source_registered,
        "targets": report.targets.iter().map(|t| json!({
            "platform": t.platform.to_string(),
            "dest_dir": report_path(&t.dest_dir),
            "action": action_json(&t.action),
            "files_written": t.files_written,
            "installed_checksum": t.installed_checksum,
            "discarded_paths": t.discarded_paths.iter().map(|p| report_path(p)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn hex_map(value: &Value) -> BTreeMap<String, Vec<u8>> {
    value
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), unhex(v.as_str().unwrap())))
        .collect()
}

fn e2e(case: &Value) -> Value {
    let test = TestContext::at(fixed_time());
    let scope = match field_str(case, "scope") {
        "global" => Scope::Global,
        "local" => Scope::Local,
        other => panic!("scope {other}"),
    };
    let install_scope = scope.to_install_scope();
    for (path, bytes) in hex_map(&case["pre_tree"]) {
        test.fs.add_file(fixture_to_fake(&path), bytes);
    }
    for (name, bytes) in hex_map(&case["pre_locks"]) {
        let platform = Platform::ALL
            .into_iter()
            .find(|p| test.paths.with_platform(*p).lock_path(install_scope).file_name().unwrap() == name.as_str())
            .expect("known lock name");
        test.fs.add_file(test.paths.with_platform(platform).lock_path(install_scope), bytes);
    }
    let skill = BundledSkill::from_files(
        hex_map(&case["bundle"])
            .into_iter()
            .map(|(rel, bytes)| SkillFile { rel_path: PathBuf::from(rel), bytes })
            .collect(),
    );
    if let Some(installed) = case.get("installed").filter(|v| !v.is_null()) {
        seed_installed(&test, &skill, field_str(case, "tool_name"), install_scope, installed);
    }
    let (pre_tree, pre_locks) = snapshot(&test, install_scope);
    let installer = SkillInstaller::new(ToolIdentity::new(
        field_str(case, "tool_name"),
        field_str(case, "tool_version"),
    ));
    let force = case["force"].as_bool().unwrap();
    let plan = match installer.plan(&skill, scope, force, &test.ctx()) {
        Ok(plan) => plan,
        Err(err) => return json!({"error": err.to_string()}),
    };
    let apply = match installer.apply(&skill, &plan, &test.ctx()) {
        Ok(report) => json!({"status": "applied", "error": null, "report": report_json(&report)}),
        Err(err) => json!({"status": "blocked", "error": err.to_string(), "report": null}),
    };
    let (tree, locks) = snapshot(&test, install_scope);
    json!({
        "pre_tree": pre_tree,
        "pre_locks": pre_locks,
        "report": {"plan": plan_json(&plan), "apply": apply},
        "tree": tree,
        "locks": locks,
    })
}

/// Files (hex) outside the scope's lockfiles, and the lockfiles' raw bytes (hex).
fn snapshot(test: &TestContext, scope: InstallScope) -> (Map<String, Value>, Map<String, Value>) {
    let lock_paths: Vec<PathBuf> =
        Platform::ALL.iter().map(|p| test.paths.with_platform(*p).lock_path(scope)).collect();
    let mut tree = Map::new();
    let mut locks = Map::new();
    for (path, bytes) in test.fs.snapshot_files() {
        if lock_paths.contains(&path) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            locks.insert(name, json!(hex(&bytes)));
        } else {
            tree.insert(fake_to_fixture(&path), json!(hex(&bytes)));
        }
    }
    (tree, locks)
}

/// An earlier install of this tool: files reconciled at `version` in the platform's
/// dir (as-is, drifted, or an unrelated old SKILL.md) plus its lock entry.
fn seed_installed(
    test: &TestContext,
    skill: &BundledSkill,
    name: &str,
    scope: InstallScope,
    installed: &Value,
) {
    let platform = Platform::ALL
        .into_iter()
        .find(|p| p.to_string() == field_str(installed, "platform"))
        .expect("platform");
    let version = field_str(installed, "version");
    let paths = test.paths.with_platform(platform);
    let dest = paths.install_dir(ArtifactKind::Skill, scope).unwrap().join(name);
    let mut files = frontmatter::reconcile_skill_version(&skill.files, version);
    let sum = skill_fs::checksum_bundled(&files);
    match field_str(installed, "content") {
        "same" => {}
        "drifted" => files.push(SkillFile::text("LOCAL-EDIT.md", "a local edit\n")),
        "old" => files = vec![SkillFile::text("SKILL.md", "---\nname: old\n---\nold\n")],
        other => panic!("content {other}"),
    }
    skill_fs::write_skill_files(&dest, &files, &test.fs).unwrap();
    let entry = json!({
        "type": "skill",
        "version": version,
        "installed_at": "2026-01-01T00:00:00+00:00",
        "source": {"repo": format!("bundled:{name}"), "path": format!("skills/{name}")},
        "source_checksum": sum,
        "installed_checksum": sum,
    });
    let mut packages = Map::new();
    packages.insert(name.to_string(), entry);
    if installed.get("other").and_then(Value::as_bool).unwrap_or(false) {
        packages.insert(
            "other-tool".to_string(),
            json!({
                "type": "agent",
                "installed_at": "2026-01-01T00:00:00+00:00",
                "source": {"repo": "team", "path": "agents/other-tool.md"},
                "source_checksum": "sha256:00",
                "installed_checksum": "sha256:00",
            }),
        );
    }
    let lock = json!({"version": 1, "packages": packages});
    test.fs.add_file(paths.lock_path(scope), serde_json::to_vec_pretty(&lock).unwrap());
}
