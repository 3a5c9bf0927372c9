//! `chuhe match tally`: an SPRT (and the Elo) from pair counts alone, so
//! that one test can run over several sessions whose records are gone.
//!
//! A session that may lose its machine writes down what its run gave, the
//! pentanomial pair counts the match summary prints ("pairs by X's points
//! [0, 0.5, 1, 1.5, 2]: ..."), and a later session plays on with a new
//! seed and sums the batches here. Batches of the same two builds under
//! the same conditions are one sample, so the SPRT on their sum is the
//! test run longer; it decides when the sum crosses a bound.

use super::stats::{self, Penta, Sprt};

/// `chuhe match tally` arguments.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TallyArgs {
    /// One batch of pairs by the first engine's points, 0, ½, 1, 1½ and 2,
    /// as five counts separated by commas or spaces (repeatable).
    #[arg(long = "pairs", value_name = "N0,N1,N2,N3,N4", required = true)]
    pub pairs: Vec<String>,
    /// The SPRT, e.g. `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05` (the
    /// defaults).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
}

/// Reads one batch: five non-negative counts.
pub fn parse_batch(text: &str) -> Result<Penta, String> {
    let counts: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if counts.len() != 5 {
        return Err(format!(
            "--pairs '{text}': give five counts, for 0, ½, 1, 1½ and 2 points"
        ));
    }
    let mut p = Penta::default();
    for (slot, c) in p.0.iter_mut().zip(&counts) {
        *slot = c
            .parse()
            .map_err(|_| format!("--pairs '{text}': '{c}' is not a count"))?;
    }
    Ok(p)
}

/// The summed batches, their Elo and, with `sprt`, the LLR and decision.
pub fn tally(batches: &[Penta], sprt: Option<&Sprt>) -> String {
    let mut sum = Penta::default();
    for b in batches {
        for (s, c) in sum.0.iter_mut().zip(b.0) {
            *s += c;
        }
    }
    let [a, b, c, d, e] = sum.0;
    let mut out = format!(
        "{} batch(es), {} pairs ({} games); pairs by the first engine's points [0, 0.5, 1, 1.5, 2]: {a} {b} {c} {d} {e}\n",
        batches.len(),
        sum.pairs(),
        2 * sum.pairs()
    );
    match stats::elo_pentanomial(&sum) {
        Some(est) => out.push_str(&format!(
            "Elo {} ± {:.1} (95%, pentanomial)\n",
            stats::format_elo(est.elo),
            est.error()
        )),
        None => out.push_str("Elo: no pairs\n"),
    }
    if let Some(s) = sprt {
        let llr = s.llr_pentanomial(&sum);
        out.push_str(&s.summary_line(llr, s.decide(llr)));
        out.push('\n');
    }
    out
}

/// `chuhe match tally`: prints the tally.
pub fn run_cli(args: &TallyArgs) -> Result<(), String> {
    let batches = args
        .pairs
        .iter()
        .map(|t| parse_batch(t))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    print!("{}", tally(&batches, sprt.as_ref()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_parse_and_refuse_what_is_not_five_counts() {
        assert_eq!(parse_batch("1,2,3,4,5").unwrap().0, [1, 2, 3, 4, 5]);
        assert_eq!(parse_batch(" 1 2  3,4 5 ").unwrap().0, [1, 2, 3, 4, 5]);
        assert!(parse_batch("1,2,3,4").is_err());
        assert!(parse_batch("1,2,3,4,5,6").is_err());
        assert!(parse_batch("1,2,x,4,5").is_err());
        assert!(parse_batch("1,2,-3,4,5").is_err());
    }

    #[test]
    fn the_sum_of_batches_is_tested_as_one_sample() {
        let sprt = Sprt::default();
        let a = Penta([4, 23, 20, 18, 4]);
        let b = Penta([10, 40, 60, 45, 12]);
        let whole = Penta([14, 63, 80, 63, 16]);
        let split = tally(&[a, b], Some(&sprt));
        let joined = tally(&[whole], Some(&sprt));
        // Same pairs, Elo and LLR; only the batch count differs.
        assert_eq!(
            split.lines().skip(1).collect::<Vec<_>>(),
            joined.lines().skip(1).collect::<Vec<_>>()
        );
        assert!(
            split.starts_with("2 batch(es), 236 pairs (472 games)"),
            "{split}"
        );
        let llr = sprt.llr_pentanomial(&whole);
        assert!(split.contains(&format!("LLR {llr:.2}")), "{split}");
        // A lopsided sum decides.
        let won = tally(&[Penta([0, 3, 30, 180, 240])], Some(&sprt));
        assert!(won.contains("H1 accepted"), "{won}");
    }
}
