//! Searches of a compiled regular expression, every step paid for as it is taken.
//!
//! [`pyregex`](crate::pyregex) turns a Python pattern into a Thompson NFA (regex-automata's);
//! this module searches it with a PikeVM, which follows all the automaton's threads at once
//! in priority order and so never backtracks: a search takes time linear in the text times
//! the threads alive. regex-automata's own search routines cannot be priced: they run to the
//! end before returning, switch strategy on heuristics of their own (a lazy DFA that gives up
//! after a few cache clears falls back to a PikeVM over the whole text) and do work whose size
//! is known only afterwards (a reverse scan for the match's start, a second pass for the
//! groups). So the search is walked here, each step owed to a [`Tab`] that is paid in
//! installments: no more than [`INSTALLMENT`] cycles of work, and one thread's epsilon
//! closure (at most the automaton, which its size limit bounds), is ever done unpaid.
//!
//! A step is a state of the automaton visited at one position, or the copy of a thread's
//! groups when the thread is kept; [`THREAD_STEPS_PER_CYCLE`] of them cost a cycle. One pass
//! finds the match and its groups, and reads on until every thread that could still win has
//! died, so an iterated search whose automaton lives on to the end of the text (`.*x|y`)
//! pays for reading the rest of the text at every match, as it works.
//!
//! Python's positions are characters: no assertion holds inside one (an ASCII `\B` would
//! between the bytes of `é`).
//!
//! A lazy DFA would read long texts faster, but its price per transition it computes must
//! cover a pass over the whole automaton (what it visits is not visible from outside), which
//! made a one-off search of a Unicode pattern (`\w+`, ~650 states) cost a hundred times what
//! following its few live threads costs; actors search short texts once per call, so the
//! PikeVM is both the cheaper and the only engine.

use regex_automata::{
    PatternID,
    nfa::thompson::{self, NFA, State},
    util::{look::LookSet, primitives::StateID},
};
use regex_syntax::hir::Hir;

/// Thread steps (a state of the automaton visited at one position) per cycle.
pub const THREAD_STEPS_PER_CYCLE: u64 = 3;

/// Group slots a thread copies per step it is charged: keeping a thread copies its groups'
/// positions.
const SLOTS_PER_STEP: u64 = 16;

/// Extra steps of a Unicode word-boundary assertion (`\b`, `\B` without `re.ASCII`): it
/// decodes the characters on both sides and looks each up in the word table, ~60 ns, where a
/// state visited is ~5 (helper review of the PikeVM: 2.8x the loop baseline at one step).
const UNICODE_WORD_LOOK_STEPS: u64 = 8;

/// A walk pays what it owes whenever it owes this many cycles.
pub const INSTALLMENT: u64 = 1_024;

/// A position no group has been set at.
const UNSET: usize = usize::MAX;

/// What a search found: each group's span (bytes), group 0 (the match) first; a group that
/// did not take part is `None`.
pub type Spans = Vec<Option<(usize, usize)>>;

/// A pattern's automaton.
#[derive(Clone)]
pub struct Automata {
    nfa: NFA,
}

/// What building a pattern's automaton can fail with: its size, described.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TooLarge(String);

impl Automata {
    /// Builds the automaton of `hir`, refusing one whose NFA would exceed `size_limit` bytes
    /// or whose states times group slots exceed `max_state_slots` (the PikeVM keeps a copy of
    /// every group for every state).
    pub fn build(hir: &Hir, size_limit: usize, max_state_slots: usize) -> Result<Self, TooLarge> {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().nfa_size_limit(Some(size_limit)))
            .build_from_hir(hir)
            .map_err(|e| TooLarge(e.to_string()))?;
        let states = nfa.states().len();
        let slots = nfa.group_info().slot_len();
        if states.saturating_mul(slots) > max_state_slots {
            return Err(TooLarge(format!(
                "{states} states with {slots} capture slots"
            )));
        }
        Ok(Self { nfa })
    }

    /// States of the automaton, which price its build.
    pub fn states(&self) -> usize {
        self.nfa.states().len()
    }

    /// Fresh caches for this pattern's searches; `groups` says whether they set the groups
    /// (otherwise only the match's span is kept, and copied).
    pub fn caches(&self, groups: bool) -> Caches {
        let slot_len = if groups {
            self.nfa.group_info().slot_len()
        } else {
            2
        };
        Caches {
            threads: PikeVm::new(&self.nfa, slot_len),
        }
    }

    /// The leftmost-first search of `hay` from `at` (a character boundary): the match's
    /// spans, its groups' too when the caches were made for them.
    pub fn find<E>(
        &self,
        caches: &mut Caches,
        hay: &[u8],
        at: usize,
        anchored: bool,
        tab: &mut Tab<'_, E>,
    ) -> Result<Option<Spans>, E> {
        let pike = &mut caches.threads;
        let Some(slots) = pike.search(&self.nfa, hay, at, anchored, tab)? else {
            return Ok(None);
        };
        let info = self.nfa.group_info();
        Ok(Some(
            (0..info.group_len(PatternID::ZERO))
                .map(|g| {
                    let (s, e) = info.slots(PatternID::ZERO, g)?;
                    let (s, e) = (*slots.get(s)?, *slots.get(e)?);
                    (s != UNSET && e != UNSET).then_some((s, e))
                })
                .collect(),
        ))
    }
}

/// What a pattern's searches reuse.
pub struct Caches {
    threads: PikeVm,
}

// ---------------------------------------------------------------------------------------------
// PikeVM
// ---------------------------------------------------------------------------------------------

/// The threads alive at one position, in priority order, with each one's group slots.
struct ThreadList {
    /// The states that consume a byte or match, in priority order.
    ids: Vec<StateID>,
    /// `seen[s] == epoch` when state `s` has been visited for this list.
    seen: Vec<u64>,
    epoch: u64,
    /// Each state's slots, `slot_len` per state.
    slots: Vec<usize>,
}

impl ThreadList {
    fn new(states: usize, slot_len: usize) -> Self {
        Self {
            ids: Vec::new(),
            seen: vec![0; states],
            epoch: 1,
            slots: vec![UNSET; states * slot_len],
        }
    }

    fn clear(&mut self) {
        self.ids.clear();
        self.epoch += 1;
    }
}

/// A step of an epsilon closure: a state to visit, or a slot to restore once the states
/// reached through a group's opening have been visited.
enum Frame {
    Visit(StateID),
    Restore { slot: usize, value: usize },
}

/// Follows the automaton's threads in priority order, as regex-automata's PikeVM does, each
/// step owed: a thread of lower priority than one that has matched is dropped.
struct PikeVm {
    current: ThreadList,
    next: ThreadList,
    stack: Vec<Frame>,
    /// The slots of the thread being followed.
    slots: Vec<usize>,
    /// The slots of the best match so far.
    best: Vec<usize>,
}

impl PikeVm {
    fn new(nfa: &NFA, slot_len: usize) -> Self {
        let states = nfa.states().len();
        Self {
            current: ThreadList::new(states, slot_len),
            next: ThreadList::new(states, slot_len),
            stack: Vec::new(),
            slots: vec![UNSET; slot_len],
            best: vec![UNSET; slot_len],
        }
    }

    /// The leftmost-first match of `hay` from `start`, as its slots.
    fn search<E>(
        &mut self,
        nfa: &NFA,
        hay: &[u8],
        start: usize,
        anchored: bool,
        tab: &mut Tab<'_, E>,
    ) -> Result<Option<&[usize]>, E> {
        let slot_len = self.slots.len();
        let end = hay.len();
        self.current.clear();
        self.next.clear();
        let mut matched = false;
        let mut at = start;
        loop {
            if !matched && (!anchored || at == start) {
                // A thread starting here, of lower priority than every thread alive.
                self.slots.fill(UNSET);
                let start_id = nfa.start_anchored();
                let steps = closure(
                    nfa,
                    hay,
                    start_id,
                    at,
                    &mut self.current,
                    &mut self.stack,
                    &mut self.slots,
                );
                tab.add_steps(steps)?;
            }
            if self.current.ids.is_empty() && (matched || anchored) {
                break;
            }
            for &id in &self.current.ids {
                let row = id.as_usize() * slot_len..(id.as_usize() + 1) * slot_len;
                let to = match nfa.state(id) {
                    State::Match { .. } => {
                        self.best.copy_from_slice(&self.current.slots[row]);
                        matched = true;
                        // Every thread after it has lower priority.
                        break;
                    }
                    _ if at >= end => None,
                    State::ByteRange { trans } => trans.matches_byte(hay[at]).then_some(trans.next),
                    State::Sparse(t) => t.matches_byte(hay[at]),
                    State::Dense(t) => t.matches_byte(hay[at]),
                    _ => None,
                };
                let mut steps = 1;
                if let Some(to) = to {
                    self.slots.copy_from_slice(&self.current.slots[row]);
                    steps += closure(
                        nfa,
                        hay,
                        to,
                        at + 1,
                        &mut self.next,
                        &mut self.stack,
                        &mut self.slots,
                    );
                }
                tab.add_steps(steps)?;
            }
            std::mem::swap(&mut self.current, &mut self.next);
            self.next.clear();
            if at >= end {
                break;
            }
            at += 1;
        }
        Ok(matched.then_some(self.best.as_slice()))
    }
}

/// Adds to `list` the threads reachable from `from` at `at` without consuming a byte, in
/// priority order, each with the slots set on its way (`slots` holds those of the thread
/// being followed, and is left as it was); returns the steps it took (states visited, and
/// slot copies).
fn closure(
    nfa: &NFA,
    hay: &[u8],
    from: StateID,
    at: usize,
    list: &mut ThreadList,
    stack: &mut Vec<Frame>,
    slots: &mut [usize],
) -> u64 {
    let looks = nfa.look_matcher();
    // Python's positions are characters: no assertion holds inside one.
    let on_boundary = at >= hay.len() || (hay[at] as i8) >= -0x40;
    let slot_len = slots.len();
    let copy_steps = 1 + slot_len as u64 / SLOTS_PER_STEP;
    let mut steps = 0;
    stack.push(Frame::Visit(from));
    while let Some(frame) = stack.pop() {
        let id = match frame {
            Frame::Visit(id) => id,
            Frame::Restore { slot, value } => {
                slots[slot] = value;
                continue;
            }
        };
        steps += 1;
        let seen = &mut list.seen[id.as_usize()];
        if *seen == list.epoch {
            continue;
        }
        *seen = list.epoch;
        match nfa.state(id) {
            State::Union { alternates } => {
                stack.extend(alternates.iter().rev().map(|&s| Frame::Visit(s)))
            }
            State::BinaryUnion { alt1, alt2 } => {
                stack.push(Frame::Visit(*alt2));
                stack.push(Frame::Visit(*alt1));
            }
            State::Capture { next, slot, .. } => {
                let slot = slot.as_usize();
                if slot < slot_len {
                    stack.push(Frame::Restore {
                        slot,
                        value: slots[slot],
                    });
                    slots[slot] = at;
                }
                stack.push(Frame::Visit(*next));
            }
            State::Look { look, next } => {
                if LookSet::singleton(*look).contains_word_unicode() {
                    steps += UNICODE_WORD_LOOK_STEPS;
                }
                if on_boundary && looks.matches(*look, hay, at) {
                    stack.push(Frame::Visit(*next));
                }
            }
            State::Fail => {}
            State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                list.ids.push(id);
                let row = id.as_usize() * slot_len;
                list.slots[row..row + slot_len].copy_from_slice(slots);
                steps += copy_steps;
            }
        }
    }
    steps
}

// ---------------------------------------------------------------------------------------------
// Paying
// ---------------------------------------------------------------------------------------------

/// Work of a search done and not yet paid for, paid through `pay` whenever it reaches
/// [`INSTALLMENT`] cycles: no more than that is ever done unpaid.
pub struct Tab<'p, E> {
    owed: u64,
    /// Thread steps not yet owed as a whole cycle.
    steps: u64,
    pay: &'p mut dyn FnMut(u64) -> Result<(), E>,
}

impl<'p, E> Tab<'p, E> {
    pub fn new(pay: &'p mut dyn FnMut(u64) -> Result<(), E>) -> Self {
        Self {
            owed: 0,
            steps: 0,
            pay,
        }
    }

    pub fn add(&mut self, cycles: u64) -> Result<(), E> {
        self.owed = self.owed.saturating_add(cycles);
        if self.owed >= INSTALLMENT {
            self.settle()
        } else {
            Ok(())
        }
    }

    fn add_steps(&mut self, steps: u64) -> Result<(), E> {
        self.steps = self.steps.saturating_add(steps);
        let whole = self.steps / THREAD_STEPS_PER_CYCLE;
        self.steps %= THREAD_STEPS_PER_CYCLE;
        self.add(whole)
    }

    /// Pays everything owed (a part of a cycle counts as one).
    pub fn settle(&mut self) -> Result<(), E> {
        let owed = std::mem::take(&mut self.owed) + u64::from(std::mem::take(&mut self.steps) > 0);
        if owed > 0 { (self.pay)(owed) } else { Ok(()) }
    }
}
