//! The option table: every option's names in both dialects, its type and
//! range, how it is announced, and how a value is checked and stored.
//!
//! Names match case-insensitively and ignoring spaces, `_` and `-`, so
//! `Move Overhead`, `moveoverhead` and `MOVE_OVERHEAD` are one option.

use super::Dialect;
use super::parse::{parse_int, quote};
use crate::options::{self, EngineOptions, Level, Randomness, RankNumbering, Style};
use crate::skill;
use crate::text::parse_bool;
use crate::thread::MAX_THREADS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    UseMillisec,
    Batch,
    Debug,
    Ponder,
    UseBook,
    BookFiles,
    HashSize,
    Threads,
    NewGame,
    ClearHash,
    Randomness,
    Pruning,
    Knowledge,
    Idle,
    Style,
    Promotion,
    UseEgtb,
    EgtbPaths,
    MultiPv,
    MoveOverhead,
    MoveLimit,
    UseNnue,
    EvalFile,
    SkillLevel,
    LimitStrength,
    Elo,
    ShowWdl,
    /// How the host numbers ranks (`auto`, `0-9`, `1-10`).
    RankNumbering,
    /// UCI `UCI_Variant`: xiangqi is the only one.
    Variant,
    /// Old UCCI names accepted and ignored without a word.
    Tolerated,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Spin { min: i64, max: i64 },
    Combo(&'static [&'static str]),
    Text,
    Button,
}

pub struct OptionDef {
    pub id: OptionId,
    /// The UCCI name (one lower-case word).
    pub ucci: &'static str,
    /// The UCI name.
    pub uci: &'static str,
    /// Further accepted names (already normalised).
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    pub announce_ucci: bool,
    pub announce_uci: bool,
}

const LEVELS: &[&str] = &["none", "small", "medium", "large"];
const STYLES: &[&str] = &["solid", "normal", "risky"];
const RANDOMNESS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];
const VARIANTS: &[&str] = &["xiangqi"];
const RANK_NUMBERINGS: &[&str] = &["auto", "0-9", "1-10"];

const fn def(
    id: OptionId,
    ucci: &'static str,
    uci: &'static str,
    aliases: &'static [&'static str],
    kind: Kind,
    announce_ucci: bool,
    announce_uci: bool,
) -> OptionDef {
    OptionDef {
        id,
        ucci,
        uci,
        aliases,
        kind,
        announce_ucci,
        announce_uci,
    }
}

/// In announcement order.
pub const OPTIONS: &[OptionDef] = &[
    def(
        OptionId::UseMillisec,
        "usemillisec",
        "UseMillisec",
        &[],
        Kind::Check,
        true,
        false,
    ),
    def(
        OptionId::HashSize,
        "hashsize",
        "Hash",
        &["hash"],
        Kind::Spin {
            min: 1,
            max: options::MAX_HASH_MB as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::Threads,
        "threads",
        "Threads",
        &[],
        Kind::Spin {
            min: 1,
            max: MAX_THREADS as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::UseBook,
        "usebook",
        "UseBook",
        &["ownbook"],
        Kind::Check,
        true,
        true,
    ),
    def(
        OptionId::BookFiles,
        "bookfiles",
        "BookFile",
        &["bookfile", "book"],
        Kind::Text,
        true,
        true,
    ),
    def(
        OptionId::Ponder,
        "ponder",
        "Ponder",
        &[],
        Kind::Check,
        true,
        true,
    ),
    def(
        OptionId::NewGame,
        "newgame",
        "NewGame",
        &[],
        Kind::Button,
        true,
        false,
    ),
    def(
        OptionId::ClearHash,
        "clearhash",
        "Clear Hash",
        &[],
        Kind::Button,
        true,
        true,
    ),
    def(
        OptionId::MultiPv,
        "multipv",
        "MultiPV",
        &[],
        Kind::Spin {
            min: 1,
            max: options::MAX_MULTIPV as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::MoveOverhead,
        "moveoverhead",
        "Move Overhead",
        &[],
        Kind::Spin {
            min: 0,
            max: options::MAX_MOVE_OVERHEAD as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::MoveLimit,
        "movelimit",
        "Move Limit",
        &["drawmoves"],
        Kind::Spin {
            min: options::MIN_MOVE_LIMIT as i64,
            max: options::MAX_MOVE_LIMIT as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::SkillLevel,
        "skilllevel",
        "Skill Level",
        &["skill"],
        Kind::Spin {
            min: 0,
            max: options::MAX_SKILL_LEVEL as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::LimitStrength,
        "limitstrength",
        "UCI_LimitStrength",
        &[],
        Kind::Check,
        true,
        true,
    ),
    def(
        OptionId::Elo,
        "elo",
        "UCI_Elo",
        &[],
        Kind::Spin {
            min: skill::MIN_ELO as i64,
            max: skill::MAX_ELO as i64,
        },
        true,
        true,
    ),
    def(
        OptionId::ShowWdl,
        "showwdl",
        "UCI_ShowWDL",
        &[],
        Kind::Check,
        true,
        true,
    ),
    def(
        OptionId::RankNumbering,
        "ranknumbering",
        "Rank Numbering",
        &[],
        Kind::Combo(RANK_NUMBERINGS),
        false,
        true,
    ),
    def(
        OptionId::Variant,
        "variant",
        "UCI_Variant",
        &[],
        Kind::Combo(VARIANTS),
        false,
        true,
    ),
    def(
        OptionId::UseNnue,
        "usennue",
        "Use NNUE",
        &[],
        Kind::Check,
        true,
        true,
    ),
    def(
        OptionId::EvalFile,
        "evalfile",
        "EvalFile",
        &[],
        Kind::Text,
        true,
        true,
    ),
    def(
        OptionId::Randomness,
        "randomness",
        "Randomness",
        &[],
        Kind::Combo(RANDOMNESS),
        true,
        true,
    ),
    def(
        OptionId::Style,
        "style",
        "Style",
        &[],
        Kind::Combo(STYLES),
        true,
        true,
    ),
    def(
        OptionId::Pruning,
        "pruning",
        "Pruning",
        &[],
        Kind::Combo(LEVELS),
        true,
        true,
    ),
    def(
        OptionId::Knowledge,
        "knowledge",
        "Knowledge",
        &[],
        Kind::Combo(LEVELS),
        true,
        true,
    ),
    def(
        OptionId::Idle,
        "idle",
        "Idle",
        &[],
        Kind::Combo(LEVELS),
        true,
        false,
    ),
    def(
        OptionId::Batch,
        "batch",
        "Batch",
        &[],
        Kind::Check,
        true,
        false,
    ),
    def(
        OptionId::Debug,
        "debug",
        "Debug",
        &[],
        Kind::Check,
        true,
        false,
    ),
    def(
        OptionId::Promotion,
        "promotion",
        "Promotion",
        &[],
        Kind::Check,
        true,
        false,
    ),
    def(
        OptionId::UseEgtb,
        "useegtb",
        "UseEGTB",
        &[],
        Kind::Check,
        true,
        false,
    ),
    def(
        OptionId::EgtbPaths,
        "egtbpaths",
        "EGTBPaths",
        &[],
        Kind::Text,
        true,
        false,
    ),
    def(
        OptionId::Tolerated,
        "repetition",
        "Repetition",
        &["selectivity", "usehash", "loadbook"],
        Kind::Text,
        false,
        false,
    ),
];

/// Lower case without spaces, `_` or `-`.
pub fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

pub fn find(name: &str) -> Option<&'static OptionDef> {
    let n = normalise(name);
    OPTIONS.iter().find(|d| {
        normalise(d.ucci) == n || normalise(d.uci) == n || d.aliases.contains(&n.as_str())
    })
}

/// Old UCCI names that must never draw a diagnostic, even with a value we
/// cannot use (`drawmoves` still sets the move limit when it can).
pub fn silent_name(name: &str) -> bool {
    let n = normalise(name);
    n == "drawmoves" || find(&n).is_some_and(|d| d.id == OptionId::Tolerated)
}

/// Splits the words of `setoption <name> [<value>]` at the longest known
/// option name (UCI names have spaces: `setoption Move Overhead 100`).
pub fn split_bare(words: &[String]) -> Option<(&'static OptionDef, Option<String>)> {
    (1..=words.len()).rev().find_map(|k| {
        let d = find(&words[..k].join(" "))?;
        let rest = words[k..].join(" ");
        Some((d, (!rest.is_empty()).then_some(rest)))
    })
}

/// The current value as announced (defaults are the engine's current
/// settings, so a host that re-reads them sees what is in force).
fn current(d: &OptionDef, o: &EngineOptions) -> String {
    match d.id {
        OptionId::UseMillisec => o.use_millisec.to_string(),
        OptionId::Batch => o.batch.to_string(),
        OptionId::Debug => o.debug.to_string(),
        OptionId::Ponder => o.ponder.to_string(),
        OptionId::UseBook => o.use_book.to_string(),
        OptionId::BookFiles => o.book_files.clone(),
        OptionId::HashSize => o.hash_mb.to_string(),
        OptionId::Threads => o.threads.to_string(),
        OptionId::Randomness => o.randomness.name().to_string(),
        OptionId::Pruning => o.pruning.name().to_string(),
        OptionId::Knowledge => o.knowledge.name().to_string(),
        OptionId::Idle => o.idle.name().to_string(),
        OptionId::Style => o.style.name().to_string(),
        OptionId::Promotion => "false".to_string(),
        OptionId::UseEgtb => o.use_egtb.to_string(),
        OptionId::EgtbPaths => o.egtb_paths.clone(),
        OptionId::MultiPv => o.multipv.to_string(),
        OptionId::MoveOverhead => o.move_overhead.to_string(),
        OptionId::MoveLimit => o.move_limit.to_string(),
        OptionId::UseNnue => o.use_nnue.to_string(),
        OptionId::EvalFile => o.eval_file.clone(),
        OptionId::SkillLevel => o.skill_level.to_string(),
        OptionId::LimitStrength => o.limit_strength.to_string(),
        OptionId::Elo => o.elo.to_string(),
        OptionId::ShowWdl => o.show_wdl.to_string(),
        OptionId::RankNumbering => o.rank_numbering.name().to_string(),
        OptionId::Variant => VARIANTS[0].to_string(),
        OptionId::NewGame | OptionId::ClearHash | OptionId::Tolerated => String::new(),
    }
}

/// The `option ...` lines of the handshake.
pub fn announcements(dialect: Dialect, o: &EngineOptions) -> Vec<String> {
    let mut lines = Vec::new();
    for d in OPTIONS {
        let value = current(d, o);
        let line = match dialect {
            Dialect::Ucci if d.announce_ucci => {
                let tail = match d.kind {
                    Kind::Check => format!("type check default {value}"),
                    Kind::Spin { min, max } => {
                        format!("type spin min {min} max {max} default {value}")
                    }
                    Kind::Combo(vars) => {
                        let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                        format!("type combo {} default {value}", vars.join(" "))
                    }
                    Kind::Text => format!("type string default {}", text_default(&value)),
                    Kind::Button => "type button".to_string(),
                };
                format!("option {} {tail}", d.ucci)
            }
            Dialect::Uci if d.announce_uci => {
                let tail = match d.kind {
                    Kind::Check => format!("type check default {value}"),
                    Kind::Spin { min, max } => {
                        format!("type spin default {value} min {min} max {max}")
                    }
                    Kind::Combo(vars) => {
                        let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                        format!("type combo default {value} {}", vars.join(" "))
                    }
                    Kind::Text => format!("type string default {}", text_default(&value)),
                    Kind::Button => "type button".to_string(),
                };
                format!("option name {} {tail}", d.uci)
            }
            _ => continue,
        };
        lines.push(line);
    }
    lines
}

/// The option `feature`s of CECP: the UCI options under their UCI names,
/// less those XBoard sets through its own commands (`memory`, `cores`,
/// `hard`/`easy`, `variant`), `UCI_ShowWDL` (CECP has no place for it) and
/// `Rank Numbering` (XBoard writes xiangqi ranks 0-9, always).
pub fn cecp_announcements(o: &EngineOptions) -> Vec<String> {
    let mut lines = Vec::new();
    for d in OPTIONS {
        let own_command = matches!(
            d.id,
            OptionId::HashSize
                | OptionId::Threads
                | OptionId::Ponder
                | OptionId::Variant
                | OptionId::ShowWdl
                | OptionId::RankNumbering
        );
        if !d.announce_uci || own_command {
            continue;
        }
        let value = current(d, o);
        let tail = match d.kind {
            Kind::Check => format!("-check {}", u8::from(value == "true")),
            Kind::Spin { min, max } => format!("-spin {value} {min} {max}"),
            Kind::Combo(vars) => {
                let choices: Vec<String> = vars
                    .iter()
                    .map(|v| {
                        if *v == value {
                            format!("*{v}")
                        } else {
                            v.to_string()
                        }
                    })
                    .collect();
                format!("-combo {}", choices.join(" /// "))
            }
            Kind::Text => format!("-string {value}"),
            Kind::Button => "-button".to_string(),
        };
        lines.push(format!("feature option=\"{} {tail}\"", d.uci));
    }
    lines
}

/// The definition of an option.
pub fn by_id(id: OptionId) -> &'static OptionDef {
    OPTIONS
        .iter()
        .find(|d| d.id == id)
        .expect("every option id is in the table")
}

/// Both protocols write an empty string default as `<empty>`.
fn text_default(v: &str) -> &str {
    if v.is_empty() { "<empty>" } else { v }
}

/// What setting an option asks of the session beyond storing a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Stored (or silently tolerated).
    Stored,
    /// Stored, with a note for the user.
    Note(String),
    NewGame,
    ClearHash,
}

fn level(v: &str) -> Option<Level> {
    Level::ALL.into_iter().find(|l| l.name() == v)
}

/// Checks `value` for option `d` and stores it in `o`. On error nothing
/// changes and the text names the problem.
pub fn apply(d: &OptionDef, value: Option<&str>, o: &mut EngineOptions) -> Result<Effect, String> {
    let name = d.ucci;
    let raw = value.map(str::trim).unwrap_or("");
    let lower = raw.to_ascii_lowercase();
    let need = || format!("option {name} needs a value");
    let check = || -> Result<bool, String> {
        if raw.is_empty() {
            return Err(need());
        }
        parse_bool(raw)
            .ok_or_else(|| format!("option {name} takes true or false, not {}", quote(raw)))
    };
    let spin = || -> Result<i64, String> {
        let Kind::Spin { min, max } = d.kind else {
            return Err(need());
        };
        if raw.is_empty() {
            return Err(need());
        }
        let v = parse_int(raw)
            .ok_or_else(|| format!("option {name}: {} is not a number", quote(raw)))?;
        if v < min || v > max {
            return Err(format!(
                "option {name}: {} is out of range {min}..{max}",
                quote(raw)
            ));
        }
        Ok(v)
    };
    let combo_error = || {
        let Kind::Combo(vars) = d.kind else {
            return need();
        };
        format!(
            "option {name}: {} is not one of {}",
            quote(raw),
            vars.join(", ")
        )
    };
    match d.id {
        OptionId::UseMillisec => o.use_millisec = check()?,
        OptionId::Batch => o.batch = check()?,
        OptionId::Debug => o.debug = check()?,
        OptionId::Ponder => o.ponder = check()?,
        OptionId::UseBook => o.use_book = check()?,
        OptionId::UseNnue => o.use_nnue = check()?,
        OptionId::EvalFile => {
            o.eval_file = if raw.is_empty() || lower == "<empty>" || lower == "<embedded>" {
                options::EMBEDDED_NETWORK.to_string()
            } else {
                raw.to_string()
            }
        }
        OptionId::UseEgtb => {
            o.use_egtb = check()?;
            if o.use_egtb {
                return Ok(Effect::Note(
                    "no endgame tables are supported yet; the setting is stored".to_string(),
                ));
            }
        }
        OptionId::Promotion => {
            if check()? {
                return Err("promotion is not supported: pawns do not promote in chuhe".into());
            }
        }
        OptionId::BookFiles => {
            o.book_files = if raw.is_empty() || lower == "<empty>" {
                options::EMBEDDED_BOOK.to_string()
            } else {
                raw.to_string()
            }
        }
        OptionId::EgtbPaths => {
            o.egtb_paths = if lower == "<empty>" {
                String::new()
            } else {
                raw.to_string()
            }
        }
        OptionId::HashSize => o.hash_mb = spin()? as usize,
        OptionId::Threads => o.threads = spin()? as usize,
        OptionId::MultiPv => o.multipv = spin()? as usize,
        OptionId::MoveOverhead => o.move_overhead = spin()? as u64,
        OptionId::MoveLimit => o.move_limit = spin()? as u32,
        OptionId::SkillLevel => o.skill_level = spin()? as u32,
        OptionId::LimitStrength => o.limit_strength = check()?,
        OptionId::Elo => o.elo = spin()? as i32,
        OptionId::ShowWdl => o.show_wdl = check()?,
        OptionId::Variant => {
            if !VARIANTS.contains(&lower.as_str()) {
                return Err(format!(
                    "option UCI_Variant: {} is not supported; chuhe plays xiangqi only",
                    quote(raw)
                ));
            }
        }
        OptionId::Randomness => o.randomness = Randomness::parse(&lower).ok_or_else(combo_error)?,
        OptionId::Style => {
            o.style = Style::ALL
                .into_iter()
                .find(|s| s.name() == lower)
                .ok_or_else(combo_error)?;
        }
        OptionId::RankNumbering => {
            o.rank_numbering = RankNumbering::ALL
                .into_iter()
                .find(|r| r.name() == lower)
                .ok_or_else(combo_error)?;
        }
        OptionId::Pruning => o.pruning = level(&lower).ok_or_else(combo_error)?,
        OptionId::Knowledge => o.knowledge = level(&lower).ok_or_else(combo_error)?,
        OptionId::Idle => o.idle = level(&lower).ok_or_else(combo_error)?,
        OptionId::NewGame => return Ok(Effect::NewGame),
        OptionId::ClearHash => return Ok(Effect::ClearHash),
        OptionId::Tolerated => {}
    }
    Ok(Effect::Stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, value: Option<&str>, o: &mut EngineOptions) -> Result<Effect, String> {
        apply(find(name).expect(name), value, o)
    }

    #[test]
    fn names_in_both_dialects_reach_one_option() {
        for (a, b) in [
            ("Hash", "hashsize"),
            ("Move Overhead", "moveoverhead"),
            ("OwnBook", "usebook"),
            ("BookFile", "bookfiles"),
            ("clear_hash", "Clear Hash"),
            ("drawmoves", "Move Limit"),
        ] {
            assert_eq!(find(a).unwrap().id, find(b).unwrap().id, "{a} / {b}");
        }
        assert!(find("nosuchoption").is_none());
    }

    #[test]
    fn bare_setoption_splits_at_the_longest_name() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let (d, v) = split_bare(&w("Move Overhead 100")).unwrap();
        assert_eq!((d.id, v.as_deref()), (OptionId::MoveOverhead, Some("100")));
        let (d, v) = split_bare(&w("newgame")).unwrap();
        assert_eq!((d.id, v), (OptionId::NewGame, None));
        let (d, v) = split_bare(&w("bookfiles a b.obk;c.obk")).unwrap();
        assert_eq!(
            (d.id, v.as_deref()),
            (OptionId::BookFiles, Some("a b.obk;c.obk"))
        );
        assert!(split_bare(&w("frob 3")).is_none());
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = EngineOptions::default();
        let before = o.clone();
        assert!(set("hashsize", Some("abc"), &mut o).is_err());
        assert!(set("hashsize", Some("99999999"), &mut o).is_err());
        assert!(set("hashsize", Some("0"), &mut o).is_err());
        assert!(set("hashsize", None, &mut o).is_err());
        assert!(set("threads", Some("-3"), &mut o).is_err());
        assert!(set("usebook", Some("maybe"), &mut o).is_err());
        assert!(set("style", Some("wild"), &mut o).is_err());
        assert!(set("promotion", Some("true"), &mut o).is_err());
        assert_eq!(o, before);
        assert_eq!(set("Hash", Some("128"), &mut o), Ok(Effect::Stored));
        assert_eq!(o.hash_mb, 128);
        assert_eq!(set("usebook", Some("off"), &mut o), Ok(Effect::Stored));
        assert!(!o.use_book);
        assert_eq!(set("randomness", Some("Large"), &mut o), Ok(Effect::Stored));
        assert_eq!(o.randomness, Randomness::Large);
        assert_eq!(
            set("repetition", Some("anything"), &mut o),
            Ok(Effect::Stored)
        );
        assert_eq!(set("newgame", None, &mut o), Ok(Effect::NewGame));
        assert!(silent_name("DrawMoves") && silent_name("usehash"));
        assert!(!silent_name("hashsize"));
    }

    #[test]
    fn announcements_follow_each_dialect() {
        let o = EngineOptions::default();
        let ucci = announcements(Dialect::Ucci, &o);
        assert!(ucci.contains(&"option usemillisec type check default true".to_string()));
        assert!(ucci.contains(&"option newgame type button".to_string()));
        assert!(
            ucci.iter()
                .any(|l| l.starts_with("option hashsize type spin min 1 max "))
        );
        assert!(ucci.iter().all(|l| !l.contains(" name ")));
        let uci = announcements(Dialect::Uci, &o);
        assert!(uci.contains(&"option name Clear Hash type button".to_string()));
        assert!(uci.contains(&"option name MultiPV type spin default 1 min 1 max 128".to_string()));
        assert!(
            uci.iter()
                .any(|l| l.starts_with("option name Move Overhead type spin default 50"))
        );
        assert!(uci.iter().all(|l| !l.contains("usemillisec")));
    }
}
