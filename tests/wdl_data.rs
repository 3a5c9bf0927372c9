//! The committed win/draw/loss model against the data it was fitted to:
//! on held-out games it must predict the results about as well as a fresh
//! fit, and far better than the overall result rates. Skips itself when the
//! data (../shared/data/ccpd-labels-5k.tsv.xz, not part of the repository)
//! is absent, unless CHUHE_REQUIRE_DATA=1 (see `shared_data`).

mod shared_data;

use chuhe::tools::wdl_fit::{self, Coefficients, Shape};

#[test]
fn committed_wdl_model_fits_the_master_games() {
    let Some(path) = shared_data::shared_file("ccpd-labels-5k.tsv.xz") else {
        return;
    };
    // Every third position keeps the test quick; the split by game stays.
    let data = wdl_fit::read(&path, 3).expect("read the labels");
    assert!(data.train.total() > 300_000, "{}", data.train.total());
    let committed = wdl_fit::log_loss(&Coefficients::committed(), &data.valid);
    let refit = wdl_fit::fit(&data.train, Shape::CubicOffset, 600);
    let fresh = wdl_fit::log_loss(&refit, &data.valid);
    let flat = wdl_fit::log_loss(
        &wdl_fit::fit(&data.train, Shape::Constant, 600),
        &data.valid,
    );
    println!(
        "held-out log-loss: committed {committed:.4}, refit {fresh:.4}, no material {flat:.4}"
    );
    assert!(
        committed < fresh + 0.005,
        "committed {committed} vs refit {fresh}"
    );
    assert!(
        committed < flat,
        "material must help: {committed} vs {flat}"
    );
    // Result rates alone score about 1.10 nats; the model must do far better.
    assert!(committed < 0.95, "{committed}");
}
