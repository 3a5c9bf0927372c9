//! The module map in `src/lib.rs` is the truth: every `crate::` path in
//! `src/` (outside test modules) is an edge the map lists, every listed
//! use stays within its own group or the groups above, every module has
//! an entry, and no modules use each other in a circle, neither the
//! crate's modules nor the files of one module among themselves.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// One entry of the map: the module, its group, what it may use.
struct Entry {
    group: usize,
    uses: BTreeSet<String>,
}

/// Reads the `# Module map` section of `lib.rs`: groups are `**...**`
/// lines, entries `- [`name`]...` bullets (continued on indented lines)
/// that end with `Uses: a, b (detail), c.`, `Uses: nothing.` or `Uses:
/// anything above.`
fn read_map(lib: &str) -> BTreeMap<String, Entry> {
    let docs: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    let start = docs
        .iter()
        .position(|l| *l == "# Module map")
        .expect("a module map");
    let end = docs[start..]
        .iter()
        .position(|l| l.starts_with("# ") && *l != "# Module map")
        .map_or(docs.len(), |n| start + n);
    let mut bullets: Vec<(usize, String)> = Vec::new();
    let mut group = 0;
    for line in &docs[start..end] {
        if line.starts_with("**") {
            group += 1;
        } else if let Some(b) = line.strip_prefix("- ") {
            bullets.push((group, b.to_string()));
        } else if line.starts_with("  ") && !bullets.is_empty() {
            let last = bullets.last_mut().unwrap();
            last.1.push(' ');
            last.1.push_str(line.trim());
        }
    }
    let mut map: BTreeMap<String, Entry> = BTreeMap::new();
    let mut above: BTreeSet<String> = BTreeSet::new();
    for (group, text) in bullets {
        let (head, uses) = text
            .rsplit_once("Uses:")
            .unwrap_or_else(|| panic!("map entry without 'Uses:': {text}"));
        let names = entry_names(head);
        assert!(!names.is_empty(), "map entry names no module: {text}");
        let uses = uses.trim().trim_end_matches('.').trim();
        let uses: BTreeSet<String> = match uses {
            "nothing" => BTreeSet::new(),
            "anything above" => above.clone(),
            list => without_parentheses(list)
                .split(',')
                .map(|u| u.trim().split("::").next().unwrap().trim().to_string())
                .filter(|u| !u.is_empty())
                .collect(),
        };
        for name in names {
            above.insert(name.clone());
            let old = map.insert(
                name.clone(),
                Entry {
                    group,
                    uses: uses.clone(),
                },
            );
            assert!(old.is_none(), "{name} has two map entries");
        }
    }
    map
}

/// The modules an entry is about: the `[`name`]` links before the colon
/// (`main.rs` for the binary).
fn entry_names(head: &str) -> Vec<String> {
    let title = head.split_once(':').map_or(head, |(t, _)| t);
    if title.contains("`main.rs`") {
        return vec!["main".to_string()];
    }
    title
        .split("[`")
        .skip(1)
        .filter_map(|part| part.split_once("`]").map(|(n, _)| n.to_string()))
        .collect()
}

fn without_parentheses(s: &str) -> String {
    let mut depth = 0;
    s.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// Source text without comments and without `#[cfg(test)]` items.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    // Cut each `#[cfg(test)]` item: up to the end of its braces.
    while let Some(at) = code.find("#[cfg(test)]") {
        let Some(open) = code[at..].find('{').map(|i| at + i) else {
            code.truncate(at);
            break;
        };
        let mut depth = 0;
        let mut close = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..close, "");
    }
    code
}

/// The first path segments after `prefix` (`crate::`, `super::`): one, or
/// each of a `{a, b::c}` group.
fn segments_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let close = group.find('}').unwrap_or(group.len());
            for item in group[..close].split(',') {
                let name = item.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    out.push(name.to_string());
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// Every `.rs` file under `dir`, with its module path (`nnue/simd.rs` is
/// `["nnue", "simd"]`, `nnue/mod.rs` is `["nnue"]`).
fn source_files(dir: &Path, prefix: &[String], out: &mut Vec<(Vec<String>, PathBuf)>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            let mut sub = prefix.to_vec();
            sub.push(name);
            source_files(&p, &sub, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let mut path = prefix.to_vec();
            if name != "mod" {
                path.push(name);
            }
            out.push((path, p));
        }
    }
}

/// A circle in `graph`, if there is one.
fn find_circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    let mut circle = stack[from..].to_vec();
                    circle.push(next.clone());
                    return Some(circle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if !state.contains_key(node.as_str())
            && let Some(c) = visit(node, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

/// The crate's modules and the edges between them; and per module with
/// files of its own, the edges between those files.
fn actual_edges() -> (Graph, BTreeMap<String, Graph>) {
    let mut files = Vec::new();
    source_files(&src_dir(), &[], &mut files);
    let mut top = Graph::new();
    let mut inner: BTreeMap<String, Graph> = BTreeMap::new();
    // The submodules of each module with files of its own.
    let mut children: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, _) in &files {
        if path.len() == 2 {
            children
                .entry(path[0].clone())
                .or_default()
                .insert(path[1].clone());
        }
    }
    for (path, file) in &files {
        if path.is_empty() || path == &["lib"] {
            continue; // lib.rs declares the modules
        }
        let code = code_of(&fs::read_to_string(file).unwrap());
        let module = &path[0];
        let uses = top.entry(module.clone()).or_default();
        for used in segments_after(&code, "crate::") {
            if used != *module && used != "types" {
                uses.insert(used);
            }
        }
        // Between the files of one module: `super::x` and `crate::m::x`
        // where `x` is a sibling file.
        if path.len() == 2
            && let Some(siblings) = children.get(module)
        {
            let graph = inner.entry(module.clone()).or_default();
            let mut used: Vec<String> = segments_after(&code, "super::");
            used.extend(segments_after(&code, &format!("crate::{module}::")));
            for u in used {
                if siblings.contains(&u) && u != path[1] {
                    graph.entry(path[1].clone()).or_default().insert(u);
                }
            }
        }
    }
    (top, inner)
}

#[test]
fn the_module_map_is_true() {
    let lib = fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let map = read_map(&lib);
    // Every module has an entry, and every entry a module.
    let declared: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .chain(["main".to_string()])
        .collect();
    let mapped: BTreeSet<String> = map.keys().cloned().collect();
    assert_eq!(
        declared, mapped,
        "modules in lib.rs against entries in the map"
    );
    // Listed uses stay in the module's group or the groups above.
    for (name, e) in &map {
        for u in &e.uses {
            let used = map
                .get(u)
                .unwrap_or_else(|| panic!("{name} lists {u}, which has no entry"));
            assert!(
                used.group <= e.group,
                "{name} lists {u}, a module of a lower group"
            );
        }
    }
    // Every edge of the code is listed.
    let (top, _) = actual_edges();
    let mut unlisted = Vec::new();
    for (from, uses) in &top {
        let allowed = &map
            .get(from)
            .unwrap_or_else(|| panic!("{from} has no map entry"))
            .uses;
        for u in uses.difference(allowed) {
            unlisted.push(format!("{from} -> {u}"));
        }
    }
    assert!(
        unlisted.is_empty(),
        "edges the module map in src/lib.rs does not list: {unlisted:?}"
    );
}

#[test]
fn no_modules_use_each_other_in_a_circle() {
    let (top, inner) = actual_edges();
    assert_eq!(
        find_circle(&top),
        None,
        "a circle among the crate's modules"
    );
    for (module, graph) in &inner {
        assert_eq!(
            find_circle(graph),
            None,
            "a circle among the files of {module}"
        );
    }
}

#[test]
fn the_checks_see_what_they_check() {
    // The readers find what they are meant to find: a circle, a group
    // import, a test module cut out.
    let mut g = Graph::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_circle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        find_circle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let code = code_of(
        "use crate::{eval::x, nnue};\nfn f() { crate::rules::go() } // crate::tt\n\
         #[cfg(test)]\nmod tests { use crate::search; }\n",
    );
    assert_eq!(segments_after(&code, "crate::"), ["eval", "nnue", "rules"]);
    let (top, inner) = actual_edges();
    assert!(top["search"].contains("evaluate"));
    assert!(inner["nnue"]["network"].contains("arch"));
}
