//! The searches behind an answer, for any game: plain minimax, alpha-beta
//! and the engine, run within the request's budget and reported side by
//! side. Two pipelines: one for a game whose answer is read from plain
//! minimax (every move's exact score, the engine and alpha-beta beside it
//! to compare), one for a game the engine answers (plain minimax and
//! alpha-beta beside it to compare, within a share of the budget).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::answer::{
    heuristic, index, AlgorithmReport, Answer, EngineReport, Extra, IterationReport, MoveReport, MoveScore, Naming,
    Place, ProgressReport,
};
use super::request::Options;
use super::strength::{engine_choice, pick, tie_break_name};
use super::tables::TablePool;
use crate::search::{
    alpha_beta, engine_with_oracle, minimax, BookAnswer, Cancelled, Choice, EngineMove, EngineOptions, EngineResult,
    Heuristics, Limits, Oracle, Progress, Score, SearchResult, Solver, Table, TieBreak,
};

/// The time budget when a request does not set `time_ms`.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// The share of a request's time budget that plain minimax and alpha-beta
/// may take when they only compare (`1 / COMPARE_SHARE`): no deeper
/// comparison starts past it, and one under way gives up at it. The engine
/// has what is left, so the whole answer fits the budget.
const COMPARE_SHARE: u32 = 4;

/// What a request's deadline keeps back for the answer itself (its line,
/// its JSON) once the searches stop: a search that got its slot late still
/// answers before `REQUEST_TIMEOUT_MS`.
pub const ANSWER_RESERVE: Duration = Duration::from_millis(100);

/// What the searches need from the service beyond the request.
pub struct Context<'a> {
    /// Tables for the engine's searches.
    pub tables: &'a TablePool,
    /// The most time the engine may take, whatever the request asks.
    pub max_search_ms: u64,
    /// Plain minimax and alpha-beta compare to the deepest depth whose
    /// plain minimax search visits at most this many positions.
    pub compare_max_nodes: u64,
    /// The request's own deadline (`REQUEST_TIMEOUT_MS` from its start),
    /// if it has one: every search stops by then, less
    /// [`ANSWER_RESERVE`], whatever the request's `time_ms`.
    pub deadline: Option<Instant>,
    /// True when the client watches the search's progress (an event
    /// stream): the engine then deepens first, which is what reports it.
    pub watched: bool,
    /// Whether a request that does not say (`compare`) also runs the
    /// searches its answer is not read from.
    pub compare: bool,
    /// A table that the engine's searches of one client share, one after
    /// another, keeping what each found (the positions of a game under
    /// review); `None`: each search takes a table from `tables` and starts
    /// it empty.
    pub shared_table: Option<&'a RefCell<Table>>,
    /// Every move's score is wanted at the same depth (a review compares
    /// the move played with the best one): under a budget the engine then
    /// scores every move at each iteration, rather than searching the best
    /// move alone deeper (see [`EngineOptions::equal_depths`]).
    pub equal_depths: bool,
}

/// Whether this request runs the searches its answer is not read from.
fn compares(options: &Options, context: &Context<'_>) -> bool {
    options.compare.unwrap_or(context.compare)
}

/// The time budget of a request.
pub fn budget(options: &Options, context: &Context<'_>) -> Duration {
    Duration::from_millis(options.time_ms.unwrap_or(DEFAULT_TIME_MS).min(context.max_search_ms))
}

/// When the searches of an answer begun at `started` must stop: its time
/// budget after `started`, and never later than the request's own deadline
/// less what the answer keeps back for itself.
fn deadline(options: &Options, context: &Context<'_>, started: Instant) -> Instant {
    let own = started + budget(options, context);
    match context.deadline {
        Some(last) => own.min(last.checked_sub(ANSWER_RESERVE).unwrap_or(last)).max(started),
        None => own,
    }
}

/// Plain minimax or alpha-beta.
type Search<G> = for<'a> fn(&G, Limits<'a>) -> Result<SearchResult<<G as crate::search::Game>::Move>, Cancelled>;

/// Plain minimax and alpha-beta side by side, at the deepest depth both
/// finished within the comparison's budget, and all the time each took.
struct Compared<M> {
    minimax: SearchResult<M>,
    alphabeta: SearchResult<M>,
    depth: u32,
    /// The time of every iteration of each, the one abandoned included.
    minimax_time: Duration,
    alphabeta_time: Duration,
}

/// Plain minimax and alpha-beta, one depth after the other from 1, to the
/// deepest depth whose plain minimax search visits at most `max_nodes`
/// positions and at which both finish by `deadline` (depth 1 always runs,
/// at most `max_depth`); a game searched to its end stops there.
fn compare<G: Heuristics>(
    game: &G,
    max_nodes: u64,
    max_depth: Option<u32>,
    cancel: &AtomicBool,
    deadline: Instant,
) -> Result<Compared<G::Move>, Cancelled> {
    let mut deepest: Option<Compared<G::Move>> = None;
    let (mut minimax_time, mut alphabeta_time) = (Duration::ZERO, Duration::ZERO);
    // A finished game is searched to depth 1, which returns at once. Lines
    // may hold passes: the depth grows until a search reaches every end.
    for depth in 1..=max_depth.unwrap_or(u32::MAX) {
        let first = depth == 1;
        if !first && Instant::now() >= deadline {
            break;
        }
        let limits = Limits {
            max_depth: Some(depth),
            cancel: Some(cancel),
            max_nodes: (!first).then_some(max_nodes),
            deadline: (!first).then_some(deadline),
            ..Limits::default()
        };
        let timed = |search: Search<G>, spent: &mut Duration| {
            let started = Instant::now();
            let result = search(game, limits);
            *spent += started.elapsed();
            result
        };
        let plain = timed(minimax::<G>, &mut minimax_time);
        let pruned = match plain {
            Ok(_) => timed(alpha_beta::<G>, &mut alphabeta_time),
            Err(cancelled) => Err(cancelled),
        };
        match plain.and_then(|plain| pruned.map(|pruned| (plain, pruned))) {
            Ok((minimax, alphabeta)) => {
                let exact = minimax.exact;
                deepest = Some(Compared { minimax, alphabeta, depth, minimax_time, alphabeta_time });
                if exact {
                    break;
                }
            }
            Err(Cancelled) if cancel.load(Ordering::Relaxed) => return Err(Cancelled),
            // Over the node budget or past the deadline: the depth before
            // is the deepest.
            Err(Cancelled) => break,
        }
    }
    let mut compared = deepest.ok_or(Cancelled)?;
    (compared.minimax_time, compared.alphabeta_time) = (minimax_time, alphabeta_time);
    Ok(compared)
}

/// Runs the engine until `deadline`, reporting its iterations through
/// `progress` in the answer's units (`sign` times the score, moves named
/// by `name`, a drawn line `draw_plies` long when the game knows it).
#[allow(clippy::too_many_arguments)]
fn run_engine<G: Solver>(
    game: &G,
    oracle: &impl Oracle<G>,
    options: &Options,
    deadline: Instant,
    table: &mut Table,
    engine_options: EngineOptions,
    (sign, name, draw_plies): (i64, Naming, Option<u64>),
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<EngineResult<G::Move>, Cancelled> {
    let limits =
        Limits { max_depth: options.max_depth, cancel: Some(cancel), deadline: Some(deadline), ..Limits::default() };
    engine_with_oracle(game, oracle, limits, table, engine_options, &mut |p: &Progress<'_, G::Move>| {
        progress(&match p {
            Progress::Iteration(p) => ProgressReport::Iteration(IterationReport {
                depth: p.depth,
                best_move: p.best_move.map(|m| name(m.into())),
                score: sign * p.score.value(),
                exact: p.exact,
                plies_to_end: p.score.ply().map(u64::from),
                evaluation: heuristic(p.score, p.exact).map(|e| sign as i32 * e),
                principal_variation: p.principal_variation.iter().map(|&m| name(m.into())).collect(),
                nodes: p.nodes,
                elapsed_us: p.elapsed.as_micros() as u64,
            }),
            Progress::RootMove(m) => ProgressReport::Move(MoveReport {
                mv: name(m.mv.into()),
                score: sign * m.score.value(),
                exact: m.exact,
                plies_to_end: match m.score.ply() {
                    Some(ply) => Some(u64::from(ply)),
                    None => draw_plies.filter(|_| m.exact),
                },
                evaluation: heuristic(m.score, m.exact).map(|e| sign as i32 * e),
                depth: m.depth,
                nodes: m.nodes,
                elapsed_us: m.elapsed.as_micros() as u64,
            }),
        })
    })
}

/// The engine's result for a position its game's opening book answers:
/// the book's best move (the first of equals in the game's order) and
/// every move's evaluation at the depth the book searched it to, none
/// exact; one book hit, no position searched.
fn book_result<M: Copy>(book: BookAnswer<M>, score_root_moves: bool, started: Instant) -> EngineResult<M> {
    let best = book.best();
    let root_moves = book
        .moves
        .iter()
        .filter(|_| score_root_moves)
        .map(|&(mv, points, depth)| EngineMove {
            mv,
            score: Some(Score::evaluation(points)),
            exact: false,
            depth: Some(depth),
            upper_bound: false,
        })
        .collect();
    EngineResult {
        best_move: best.map(|(mv, _, _)| mv),
        score: Score::evaluation(best.map_or(0, |(_, points, _)| points)),
        exact: false,
        depth: best.map_or(0, |(_, _, depth)| depth),
        iterations: 0,
        nodes: 0,
        table_hits: 0,
        book_hits: 1,
        principal_variation: book.line,
        elapsed: started.elapsed(),
        root_moves,
    }
}

/// A table for a small search: about 16 bytes per position it may visit,
/// at most 16 MiB.
pub fn small_table(positions: u64) -> Table {
    Table::with_bytes((positions.saturating_mul(16) as usize).clamp(1 << 12, 16 << 20))
}

fn report<M: Copy + Into<u64>>(
    result: &SearchResult<M>,
    sign: i64,
    depth: Option<u32>,
    name: Naming,
) -> AlgorithmReport {
    AlgorithmReport {
        best_move: result.best_move.map(|m| name(m.into())),
        score: sign * result.score.value(),
        exact: result.exact,
        plies_to_end: result.exact.then_some(result.principal_variation.len() as u64),
        principal_variation: result.principal_variation.iter().map(|&m| name(m.into())).collect(),
        nodes: result.nodes,
        elapsed_us: result.elapsed.as_micros() as u64,
        depth,
    }
}

/// The engine's report. `draw_plies` is the length of every drawn line,
/// when the game knows it (a drawn game that fills its board).
fn engine_report<M: Copy + Into<u64>>(
    result: &EngineResult<M>,
    sign: i64,
    draw_plies: Option<u64>,
    name: Naming,
) -> EngineReport {
    let plies = match result.score.ply() {
        Some(ply) => Some(u64::from(ply)),
        None if result.exact => draw_plies.or(Some(result.principal_variation.len() as u64)),
        None => None,
    };
    EngineReport {
        result: AlgorithmReport {
            best_move: result.best_move.map(|m| name(m.into())),
            score: sign * result.score.value(),
            exact: result.exact,
            plies_to_end: plies,
            principal_variation: result.principal_variation.iter().map(|&m| name(m.into())).collect(),
            nodes: result.nodes,
            elapsed_us: result.elapsed.as_micros() as u64,
            depth: Some(result.depth),
        },
        iterations: result.iterations,
        table_hits: result.table_hits,
        book_hits: result.book_hits,
    }
}

/// The searches of a game whose answer is read from plain minimax, and
/// the move chosen for the caller.
pub struct Plain<M> {
    /// Plain minimax's result: the answer's.
    pub minimax: SearchResult<M>,
    /// Alpha-beta's, when it ran.
    pub alphabeta: Option<SearchResult<M>>,
    /// The engine's, when it ran.
    pub engine: Option<EngineResult<M>>,
    /// The move chosen for the caller.
    pub choice: Option<Choice<M>>,
}

/// Runs plain minimax (whose answer is the answer) and, to compare,
/// alpha-beta and the engine (with `table`), reporting the engine's
/// iterations with scores times `sign`. A level's choice weighs the moves
/// in the game's own units when `relative`.
#[allow(clippy::too_many_arguments)]
pub fn plain<G: Solver>(
    game: &G,
    options: &Options,
    context: &Context<'_>,
    table: &mut Table,
    sign: i64,
    relative: bool,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Plain<G::Move>, Cancelled> {
    let started = Instant::now();
    let limits = Limits { max_depth: options.max_depth, cancel: Some(cancel), ..Limits::default() };
    let minimax = minimax(game, limits)?;
    let (alphabeta, engine) = if compares(options, context) {
        let alphabeta = alpha_beta(game, limits)?;
        let deadline = deadline(options, context, started);
        let engine_options = EngineOptions::default();
        let engine = run_engine(
            game,
            &crate::search::NoOracle,
            options,
            deadline,
            table,
            engine_options,
            (sign, index, None),
            cancel,
            progress,
        )?;
        (Some(alphabeta), Some(engine))
    } else {
        (None, None)
    };
    let mut rng = fastrand::Rng::with_seed(options.seed);
    let choice = pick(&minimax.root_moves, options, relative, &mut rng);
    Ok(Plain { minimax, alphabeta, engine, choice })
}

/// The answer of a game read from plain minimax, of the answer shape
/// `kind`, its scores times `sign`; the game adds its own fields.
pub fn plain_answer<M: Copy + PartialEq + Into<u64>>(
    kind: &'static str,
    s: &Plain<M>,
    options: &Options,
    context: &Context<'_>,
    sign: i64,
) -> Answer {
    let minimax = report(&s.minimax, sign, options.max_depth, index);
    let alphabeta = s.alphabeta.as_ref().map(|result| report(result, sign, options.max_depth, index));
    let engine = s.engine.as_ref().map(|result| engine_report(result, sign, None, index));
    let moves_total = s.minimax.root_moves.len();
    let moves: Vec<MoveScore> = s
        .minimax
        .root_moves
        .iter()
        .take(options.max_moves)
        .map(|m| MoveScore {
            mv: index(m.mv.into()),
            score: Some(sign * m.score.value()),
            plies_to_end: s.minimax.exact.then_some(u64::from(m.plies)),
            extra: Extra::default(),
        })
        .collect();
    // From every move, not only the listed ones.
    let best_move_score =
        s.choice.and_then(|c| s.minimax.root_moves.iter().find(|m| m.mv == c.mv)).map(|m| sign * m.score.value());
    Answer {
        kind,
        best_move: s.choice.map(|c| index(c.mv.into())),
        random_move: s.choice.is_some_and(|c| c.random_move),
        best_move_score,
        score: minimax.score,
        exact: minimax.exact,
        plies_to_end: minimax.plies_to_end,
        principal_variation: minimax.principal_variation.clone(),
        moves_truncated: moves.len() < moves_total,
        moves,
        moves_total: moves_total as u64,
        max_depth: options.max_depth,
        time_ms: budget(options, context).as_millis() as u64,
        tie_break: tie_break_name(options.tie_break),
        mistake: options.mistake,
        level: options.level,
        seed: options.seed,
        minimax: Some(minimax),
        alphabeta,
        engine,
        extra: Extra::default(),
    }
}

/// How the answer of a game the engine answers reads its moves and scores.
#[derive(Clone, Copy)]
pub struct EngineGame {
    /// The answer's `kind`.
    pub kind: &'static str,
    /// The moves' names.
    pub name: Naming,
    /// The plies of every drawn line, when the game knows them (a drawn
    /// game that fills its board).
    pub draw_plies: Option<u64>,
    /// A root move's score in the units a level's softmax weighs (see
    /// [`crate::search::utility`]).
    pub level_score: fn(Score) -> Score,
}

/// An answer still without the game's own fields, and the move chosen
/// for the caller.
pub type Answered<M> = (Answer, Option<Choice<M>>);

/// The answer of a game the engine answers, with `oracle` (an opening
/// book, an endgame solver): plain minimax and alpha-beta only compare,
/// at the depth their share of the budget allows. The game adds what the
/// answer says of its board; the move chosen for the caller comes with it.
pub fn engine<G: Solver>(
    game: &G,
    oracle: &impl Oracle<G>,
    rules: EngineGame,
    options: &Options,
    context: &Context<'_>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&ProgressReport),
) -> Result<Answered<G::Move>, Cancelled> {
    let name = rules.name;
    let started = Instant::now();
    let deadline = deadline(options, context, started);
    let compared = if compares(options, context) {
        let share = started + budget(options, context) / COMPARE_SHARE;
        let c = compare(game, context.compare_max_nodes, options.max_depth, cancel, share.min(deadline))?;
        let mut minimax = report(&c.minimax, 1, Some(c.depth), name);
        let mut alphabeta = report(&c.alphabeta, 1, Some(c.depth), name);
        minimax.elapsed_us = c.minimax_time.as_micros() as u64;
        alphabeta.elapsed_us = c.alphabeta_time.as_micros() as u64;
        Some((minimax, alphabeta))
    } else {
        None
    };
    let (minimax_report, alphabeta_report) = compared.unzip();
    // A request that lists one move at most and plays the best (no level,
    // no mistake, the first of equals) asks for the best move alone: the
    // engine proves it and its score, as a solver does, not every move's.
    let best_only = options.max_moves <= 1
        && options.level.is_none()
        && options.mistake == 0.0
        && options.tie_break == TieBreak::First;
    let engine_options = EngineOptions {
        score_root_moves: !best_only,
        deepen_first: context.watched,
        equal_depths: context.equal_depths,
        ..EngineOptions::default()
    };
    let mut run = |table: &mut Table, engine_options: EngineOptions| {
        run_engine(
            game,
            oracle,
            options,
            deadline,
            table,
            engine_options,
            (1, name, rules.draw_plies),
            cancel,
            progress,
        )
    };
    // A search under a budget that the game's opening book outweighs is
    // answered from the book; a depth limit (a level's style), a review's
    // equal depths or a larger budget search as usual.
    let booked = (options.max_depth.is_none() && !context.equal_depths)
        .then(|| game.book())
        .flatten()
        .filter(|book| budget(options, context) <= book.worth);
    let engine_result = match (booked, context.shared_table) {
        (Some(book), _) => book_result(book, engine_options.score_root_moves, started),
        (None, Some(shared)) => run(&mut shared.borrow_mut(), EngineOptions { keep_table: true, ..engine_options })?,
        (None, None) => run(context.tables.take().table(), engine_options)?,
    };

    let mut rng = fastrand::Rng::with_seed(options.seed);
    let choice = engine_choice(&engine_result, rules.level_score, rules.draw_plies, options, &mut rng);
    let engine = engine_report(&engine_result, 1, rules.draw_plies, name);
    // The moves scored: every legal move, or the best alone.
    let best: Vec<EngineMove<G::Move>> = engine_result
        .best_move
        .filter(|_| best_only)
        .map(|mv| EngineMove {
            mv,
            score: Some(engine_result.score),
            exact: engine_result.exact,
            depth: (!engine_result.exact).then_some(engine_result.depth),
            upper_bound: false,
        })
        .into_iter()
        .collect();
    let (scored, moves_total) = if best_only {
        (&best[..], game.moves().count())
    } else {
        (&engine_result.root_moves[..], engine_result.root_moves.len())
    };
    let moves: Vec<MoveScore> = scored
        .iter()
        .take(options.max_moves)
        .map(|m| {
            let mut extra = Extra::default();
            extra.push(Place::AfterPliesToEnd, "exact", &m.exact);
            let evaluation = m.score.filter(|_| !m.upper_bound).and_then(|s| heuristic(s, m.exact));
            extra.push(Place::AfterPliesToEnd, "evaluation", &evaluation);
            extra.push(Place::AfterPliesToEnd, "depth", &m.depth);
            if m.upper_bound {
                // The score is proven not to be passed, and nothing more.
                extra.push(Place::AfterPliesToEnd, "bound", &"upper");
            }
            MoveScore {
                mv: name(m.mv.into()),
                score: m.score.map(Score::value),
                plies_to_end: m.score.filter(|_| !m.upper_bound).and_then(|s| match s.ply() {
                    Some(ply) => Some(u64::from(ply)),
                    None => rules.draw_plies.filter(|_| m.exact),
                }),
                extra,
            }
        })
        .collect();
    let chosen = choice.and_then(|c| scored.iter().find(|m| m.mv == c.mv));
    let mut extra = Extra::default();
    extra.push(
        Place::AfterBestMoveScore,
        "best_move_evaluation",
        &chosen.and_then(|m| m.score.and_then(|s| heuristic(s, m.exact))),
    );
    extra.push(Place::AfterExact, "evaluation", &heuristic(engine_result.score, engine_result.exact));
    let answer = Answer {
        kind: rules.kind,
        best_move: choice.map(|c| name(c.mv.into())),
        random_move: choice.is_some_and(|c| c.random_move),
        best_move_score: chosen.and_then(|m| m.score).map(Score::value),
        score: engine.result.score,
        exact: engine.result.exact,
        plies_to_end: engine.result.plies_to_end,
        principal_variation: engine.result.principal_variation.clone(),
        moves_truncated: moves.len() < moves_total,
        moves_total: moves_total as u64,
        moves,
        max_depth: options.max_depth,
        time_ms: budget(options, context).as_millis() as u64,
        tie_break: tie_break_name(options.tie_break),
        mistake: options.mistake,
        level: options.level,
        seed: options.seed,
        minimax: minimax_report,
        alphabeta: alphabeta_report,
        engine: Some(engine),
        extra,
    };
    Ok((answer, choice))
}
