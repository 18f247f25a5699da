//! A game tree as the service serves it: `tree` (with `maximizing`),
//! answered from plain minimax in the tree's own units.

use std::sync::atomic::AtomicBool;

use super::{Tree, TreeError, TreeLimits};
use crate::search::Cancelled;
use crate::suggest::answer::Place;
use crate::suggest::pipeline::{plain, plain_answer, small_table};
use crate::suggest::request::option;
use crate::suggest::{Answer, Context, Fields, InputError, Options, ProgressReport, ServedPosition, Style};

/// A level's style: the whole tree is searched; the choice softens, in
/// shares of the spread between the best and the worst move.
pub fn style(level: u8) -> Style {
    const TEMPERATURE: [f64; 10] = [1.0, 0.6, 0.4, 0.3, 0.2, 0.15, 0.1, 0.06, 0.03, 0.0];
    Style::at(level, &[None; 10], &TEMPERATURE)
}

/// A tree to answer, and whether its root maximizes the leaf values.
#[derive(Debug)]
pub struct Question {
    tree: Tree,
    maximizing: bool,
}

/// Reads the tree from the request's `tree` and `maximizing` within
/// `limits`, refusing `to_move` (a board's) and a depth limit that would
/// stop at an inner node without a value.
pub fn read(fields: &Fields<'_>, options: &Options, limits: TreeLimits) -> Result<Box<dyn ServedPosition>, InputError> {
    if fields.get("to_move").is_some() {
        return Err(InputError::invalid(
            "invalid_request",
            "to_move".to_string(),
            "to_move applies to boards only: for a tree, maximizing says what the root wants",
        ));
    }
    let maximizing = option::<bool>(fields.get("maximizing"), "maximizing", "true or false")?.unwrap_or(true);
    let raw = fields.get("tree").ok_or_else(|| InputError::invalid("invalid_request", None, "a tree is needed"))?;
    let tree = Tree::parse(raw.get(), limits).map_err(tree_error)?;
    // Refuses a depth limit that stops at an inner node without a value.
    tree.game(maximizing, options.max_depth).map_err(tree_error)?;
    Ok(Box::new(Question { tree, maximizing }))
}

fn tree_error(error: TreeError) -> InputError {
    let code = match error {
        TreeError::Invalid { .. } => "invalid_tree",
        TreeError::TooLarge { .. } => "tree_too_large",
        TreeError::TooDeep { .. } => "tree_too_deep",
        TreeError::MissingValue { .. } => "missing_value",
    };
    let message = match &error {
        TreeError::TooLarge { path, limit } => {
            format!("{path}: the tree has more than {limit} nodes, the most this service accepts")
        }
        TreeError::TooDeep { path, limit } => {
            format!("{path}: the tree is deeper than {limit} levels, the most this service accepts")
        }
        _ => error.to_string(),
    };
    InputError::invalid(code, error.path().to_string(), message)
}

impl ServedPosition for Question {
    fn style(&self, level: u8) -> Style {
        style(level)
    }

    fn work_estimate(&self) -> u64 {
        self.tree.len() as u64
    }

    fn answer(
        &self,
        options: &Options,
        context: &Context<'_>,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ProgressReport),
    ) -> Result<Answer, Cancelled> {
        // Reading the request checked the tree against this depth limit,
        // and refused it if it failed, so this cannot fail.
        let game = self.tree.game(self.maximizing, options.max_depth).map_err(|_| Cancelled)?;
        let mut table = small_table(self.tree.len() as u64);
        // Scores are reported in the tree's own units: the root's view
        // negated when the root minimizes.
        let sign = if self.maximizing { 1 } else { -1 };
        let searched = plain(&game, options, context, &mut table, sign, true, cancel, progress)?;
        // Names are looked up for the listed moves only: a root may have
        // millions of children.
        let name_of = |mv: u32| self.tree.root_child_name(mv as usize).map(str::to_string);
        let mut answer = plain_answer("tree", &searched, options, context, sign);
        answer.extra.push(Place::AfterBestMove, "best_move_name", &searched.choice.and_then(|c| name_of(c.mv)));
        // `moves` lists the first root moves, in order.
        for (entry, root_move) in answer.moves.iter_mut().zip(&searched.minimax.root_moves) {
            entry.extra.push(Place::AfterBestMove, "name", &name_of(root_move.mv));
        }
        answer.extra.push(Place::AfterPliesToEnd, "maximizing", &self.maximizing);
        Ok(answer)
    }
}
