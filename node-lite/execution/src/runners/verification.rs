//! Verification modes (CIP-2 §9, whitepaper "LLM Result Verification" and "External Data and
//! Oracle Semantics"): what a revealed result agrees on, which results the verified group
//! keeps, and which of them is the job's result. Objective, on-chain checks only.
//!
//! Each opened reveal gets an **agreement key** ([`agreement`]) when it is revealed, or none
//! when it is not a valid result: it does not parse as the job's data format, breaks the
//! result schema's JSON Schema, or fails a `numeric_range` check. Results agree when their
//! keys are equal:
//! - `none`, `economic_bond`, `deterministic`: the result's bytes;
//! - `majority_vote`: the canonical JSON of the value at `vote_field`;
//! - `structured_match`: the canonical JSON of every `field_match` and `field_majority` field
//!   (so the largest group holds each field's majority value); `numeric_tolerance` then keeps,
//!   of that group, the results within `tolerance_bps` of the group's median ([`keep`]);
//! - a snapshot mode (mutable external data) replaces the mode's key (after a
//!   `structured_match` job's range checks): `majority` keys on the value at the first
//!   extraction rule, `first_valid`, `latest` and `median` put every valid result in one group,
//!   and the verified result is the group's first or last in the committee's draw order (which
//!   no member or aggregator chooses) or its lower median ([`chosen`]).
//!
//! JSON Schema (2020-12) is checked when the data format names a schema, in every mode. So
//! that checking stays linear in schema size × result size, a schema may not use references
//! (`$ref`, `$dynamicRef`, `$recursiveRef`, anchors), regular expressions (`pattern`,
//! `patternProperties`) or `uniqueItems`, and formats are not asserted ([`check_spec`]).
//! Compiling costs a cycle per schema byte and checking one cycle per 64 of schema bytes ×
//! result bytes, both paid by the reveal (and the compile by the submission).
//!
//! Numbers are compared as IEEE-754 doubles parsed from the JSON text (serde_json's
//! correctly rounded `float_roundtrip` parser); the median is the lower median in
//! `f64::total_cmp` order.

use cowboy_types::{
    Hash,
    job::{
        Check, DataFormat, Fault, FaultKind, JobInput, JobRecord, JobSpec, Revealed, SnapshotMode,
        VerificationMode,
    },
    keccak256,
};
use serde_json::Value as J;

/// JSON Schema work is priced at one cycle per this many (schema bytes × result bytes).
pub const SCHEMA_CHECK_BYTES_PER_CYCLE: u64 = 64;

/// Patterns are refused at submission; should one reach the engine, its program is small.
const PATTERN_SIZE_LIMIT: usize = 16 * 1024;

/// Keywords a schema may not use: references (which make checking exponential), regular
/// expressions (unpriced) and `uniqueItems` (quadratic).
const REFUSED_KEYWORDS: [&str; 9] = [
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "pattern",
    "patternProperties",
    "uniqueItems",
];

/// Keywords whose value maps names to schemas (the names are not keywords).
const NAMED_SCHEMAS: [&str; 4] = ["properties", "$defs", "definitions", "dependentSchemas"];

/// Keywords whose value is data, not a schema.
const DATA: [&str; 5] = ["enum", "const", "default", "examples", "dependentRequired"];

/// The first refused keyword in `schema`, with its JSON pointer.
fn refused_keyword(schema: &J, at: &str) -> Option<String> {
    match schema {
        J::Object(map) => {
            for (k, v) in map {
                let here = format!("{at}/{k}");
                if REFUSED_KEYWORDS.contains(&k.as_str()) {
                    return Some(format!("`{k}` (at {here})"));
                }
                if DATA.contains(&k.as_str()) {
                    continue;
                }
                if NAMED_SCHEMAS.contains(&k.as_str()) {
                    if let J::Object(named) = v {
                        for (name, sub) in named {
                            if let Some(found) = refused_keyword(sub, &format!("{here}/{name}")) {
                                return Some(found);
                            }
                        }
                    }
                    continue;
                }
                if let Some(found) = refused_keyword(v, &here) {
                    return Some(found);
                }
            }
            None
        }
        J::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| refused_keyword(v, &format!("{at}/{i}"))),
        _ => None,
    }
}

/// Compiles the JSON Schema `text` with the options every node uses, or says why it cannot.
pub fn schema(text: &str) -> Result<jsonschema::Validator, String> {
    let doc: J = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(false)
        .with_pattern_options(
            jsonschema::PatternOptions::regex()
                .size_limit(PATTERN_SIZE_LIMIT)
                .dfa_size_limit(PATTERN_SIZE_LIMIT),
        )
        .build(&doc)
        .map_err(|e| e.to_string())
}

/// The JSON Schema of `spec`'s result, if its data format names one.
fn schema_text(spec: &JobSpec) -> Option<&str> {
    match &spec.schema.data_format {
        DataFormat::Json { schema: Some(text) } => Some(text.as_str()),
        _ => None,
    }
}

/// Refuses at submission a schema that uses a refused keyword or does not compile.
pub fn check_spec(spec: &JobSpec) -> Result<(), String> {
    if let Some(text) = schema_text(spec) {
        let field = "schema.data_format.json.schema";
        let doc: J = serde_json::from_str(text).map_err(|e| format!("{field}: not JSON: {e}"))?;
        if let Some(k) = refused_keyword(&doc, "") {
            return Err(format!(
                "{field} uses {k}: references, regular expressions and uniqueItems are not checked on chain (their cost is not linear in the result's size)"
            ));
        }
        schema(text).map_err(|e| format!("{field}: {e}"))?;
    }
    Ok(())
}

/// Cycles compiling `spec`'s result schema costs: one per byte.
pub fn compile_cycles(spec: &JobSpec) -> u64 {
    schema_text(spec).map_or(0, |s| s.len() as u64)
}

/// Cycles checking `result_len` bytes of result costs beyond reading them.
pub fn check_cycles(spec: &JobSpec, result_len: usize) -> u64 {
    schema_text(spec).map_or(0, |s| {
        (s.len() as u64).saturating_mul(result_len as u64) / SCHEMA_CHECK_BYTES_PER_CYCLE
    })
}

/// The field a snapshot mode combines: where the first extraction rule puts its value.
fn snapshot_field(spec: &JobSpec) -> Option<std::borrow::Cow<'_, str>> {
    match &spec.input {
        JobInput::Http(h) => h
            .extract
            .first()
            .and_then(|f| cowboy_types::extract::ExtractRule::parse(f).ok())
            .map(|r| r.result_pointer()),
        _ => None,
    }
}

/// Checks results of one job: its spec with its JSON Schema compiled once.
pub struct Checker<'s> {
    spec: &'s JobSpec,
    /// `None` when the format names no schema; `Some(None)` when the schema does not compile
    /// (refused at submission, so only a job stored before a rule change): no result is valid.
    validator: Option<Option<jsonschema::Validator>>,
}

impl<'s> Checker<'s> {
    pub fn new(spec: &'s JobSpec) -> Self {
        Self {
            spec,
            validator: schema_text(spec).map(|t| schema(t).ok()),
        }
    }

    /// What a reveal agrees on, or `None` when it is not a valid result. A reported fault
    /// (with progress at most 10,000 bps) agrees with the same kind of fault, whatever the
    /// result says. Otherwise a `semantic_similarity` result needs an embedding (its
    /// agreement is then decided by [`cluster`]); any other mode's must have none.
    pub fn agreement(
        &self,
        result: &[u8],
        embedding: &[i16],
        fault: Option<&Fault>,
    ) -> Option<Hash> {
        if let Some(f) = fault {
            return (f.progress_bps <= 10_000).then(|| fault_key(f.kind));
        }
        let needs = matches!(
            self.spec.verification.mode,
            VerificationMode::SemanticSimilarity { .. }
        );
        if needs == embedding.is_empty() {
            return None;
        }
        agreement_with(self.spec, self.validator.as_ref(), result)
    }
}

/// What `result` agrees on under `spec`, or `None` when it is not a valid result.
fn agreement_with(
    spec: &JobSpec,
    validator: Option<&Option<jsonschema::Validator>>,
    result: &[u8],
) -> Option<Hash> {
    let doc = match &spec.schema.data_format {
        DataFormat::Json { .. } => {
            let doc: J = serde_json::from_slice(result).ok()?;
            if let Some(v) = validator
                && !v.as_ref()?.is_valid(&doc)
            {
                return None;
            }
            Some(doc)
        }
        DataFormat::Text {} => {
            std::str::from_utf8(result).ok()?;
            None
        }
        DataFormat::Bytes {} => None,
    };
    let parsed = || doc.clone().or_else(|| serde_json::from_slice(result).ok());
    // A `structured_match` job's checks decide validity first, whatever combines the results.
    let structured = match &spec.verification.mode {
        VerificationMode::StructuredMatch { checks } => {
            let doc = parsed()?;
            let mut fields = Vec::new();
            for c in checks.iter() {
                match c {
                    Check::JsonSchema {} => {}
                    Check::FieldMatch { field } | Check::FieldMajority { field } => {
                        fields.push(doc.pointer(field)?);
                    }
                    Check::NumericTolerance { field, .. } => {
                        number(doc.pointer(field)?)?;
                    }
                    Check::NumericRange { field, min, max } => {
                        let v = number(doc.pointer(field)?)?;
                        if v < *min as f64 || v > *max as f64 {
                            return None;
                        }
                    }
                }
            }
            Some(key(&fields))
        }
        _ => None,
    };
    if let Some(mode) = spec.verification.snapshot {
        return Some(match mode {
            SnapshotMode::Majority => {
                let doc = parsed()?;
                key(&[doc.pointer(&snapshot_field(spec)?)?])
            }
            // Every valid result is in the one group; `chosen` picks among them.
            SnapshotMode::Median => {
                let doc = parsed()?;
                number(doc.pointer(&snapshot_field(spec)?)?)?;
                key(&[])
            }
            SnapshotMode::FirstValid | SnapshotMode::Latest => key(&[]),
        });
    }
    match &spec.verification.mode {
        VerificationMode::MajorityVote { vote_field } => {
            let doc = parsed()?;
            Some(key(&[doc.pointer(vote_field)?]))
        }
        VerificationMode::StructuredMatch { .. } => structured,
        _ => Some(keccak256(result)),
    }
}

/// A JSON number as a double.
fn number(v: &J) -> Option<f64> {
    v.as_f64().filter(|f| f.is_finite())
}

/// `keccak256` of the values' canonical JSON, each followed by a newline (which canonical
/// JSON never contains unescaped, so the parts cannot run into each other).
fn key(values: &[&J]) -> Hash {
    let mut out = Vec::new();
    for v in values {
        canonical_json(v, &mut out);
        out.push(b'\n');
    }
    keccak256(&out)
}

/// The largest agreeing group of a job's reveals, after what the mode keeps, and the job's
/// result among it.
pub struct Group<'r> {
    /// The kept results, in reveal order.
    pub kept: Vec<&'r Revealed>,
    /// The job's result: the first kept, or what the snapshot mode or the similarity cluster
    /// picks.
    pub chosen: Option<&'r Revealed>,
    /// Reveals that were not valid results.
    pub invalid: usize,
    /// When the largest group reported a fault: its kind and the lower median of the
    /// progress its members reported (the kept results are theirs, and `chosen` is none).
    pub fault: Option<(FaultKind, u16)>,
}

/// The agreement key of a reported fault: every report of the same kind agrees.
pub fn fault_key(kind: FaultKind) -> Hash {
    keccak256(&[b"cowboy-fault:".as_slice(), &[kind.code()]].concat())
}

/// Finds `job`'s verified group: results with equal agreement keys, in groups ordered by
/// their first reveal (a threshold above half the committee leaves at most one group that
/// can reach it; ties go to the earlier group); `semantic_similarity` clusters by cosine
/// similarity instead ([`cluster`]).
pub fn group(job: &JobRecord) -> Group<'_> {
    let valid: Vec<&Revealed> = job
        .reveals
        .iter()
        .filter(|r| r.agreement.is_some())
        .collect();
    let invalid = job.reveals.len() - valid.len();
    // Reported faults agree by kind; the largest such group wins when it reaches the threshold.
    let mut faults: Vec<(FaultKind, Vec<&Revealed>)> = Vec::new();
    for r in &valid {
        if let Some(f) = r.fault {
            match faults.iter_mut().find(|(k, _)| *k == f.kind) {
                Some((_, members)) => members.push(r),
                None => faults.push((f.kind, vec![r])),
            }
        }
    }
    if let Some((kind, members)) = faults
        .into_iter()
        .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(&a.0)))
        .filter(|(_, m)| m.len() >= usize::from(job.threshold))
    {
        let mut progress: Vec<u16> = members
            .iter()
            .filter_map(|r| r.fault.map(|f| f.progress_bps))
            .collect();
        progress.sort_unstable();
        let median = progress
            .get(progress.len().saturating_sub(1) / 2)
            .copied()
            .unwrap_or(0);
        return Group {
            kept: members,
            chosen: None,
            invalid,
            fault: Some((kind, median)),
        };
    }
    let valid: Vec<&Revealed> = valid.into_iter().filter(|r| r.fault.is_none()).collect();
    if let VerificationMode::SemanticSimilarity { threshold_bps } = job.spec.verification.mode {
        let (chosen, kept) = cluster(threshold_bps, &valid);
        return Group {
            kept,
            chosen,
            invalid,
            fault: None,
        };
    }
    let mut groups: Vec<(Hash, Vec<&Revealed>)> = Vec::new();
    for r in valid {
        let Some(k) = r.agreement else { continue };
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, members)) => members.push(r),
            None => groups.push((k, vec![r])),
        }
    }
    let best = groups
        .into_iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.1.len().cmp(&b.1.len()).then(j.cmp(i)))
        .map(|(_, (_, members))| members)
        .unwrap_or_default();
    let kept = keep(&job.spec, best);
    let chosen = chosen(job, &kept);
    Group {
        kept,
        chosen,
        invalid,
        fault: None,
    }
}

/// Whether two embeddings' cosine similarity is at least `threshold_bps` / 10,000, in integer
/// arithmetic: equal lengths, a positive dot product, and `dot² × 10⁸ ≥ t² × |a|² × |b|²`.
/// Q1.15 components bound `dot` and the squared norms by 2^40 over 1,024 components, so every
/// product fits in 128 bits.
pub fn similar(a: &[i16], b: &[i16], threshold_bps: u32) -> bool {
    if a.len() != b.len() || a.is_empty() {
        return false;
    }
    let (mut dot, mut na, mut nb) = (0i64, 0i64, 0i64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (i64::from(*x), i64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if dot <= 0 {
        return false;
    }
    let dot = dot as u128;
    let t = u128::from(threshold_bps);
    dot * dot * 100_000_000 >= t * t * (na as u128) * (nb as u128)
}

/// `semantic_similarity` (spec README "Semantic similarity"; CIP-2 §9): each valid result's
/// cluster is every valid result whose embedding is similar to its own (itself included);
/// the largest cluster wins (ties: the earlier center), and its center's result is the job's.
pub fn cluster<'r>(
    threshold_bps: u32,
    valid: &[&'r Revealed],
) -> (Option<&'r Revealed>, Vec<&'r Revealed>) {
    let mut best: (Option<&Revealed>, Vec<&Revealed>) = (None, Vec::new());
    for center in valid {
        let members: Vec<&Revealed> = valid
            .iter()
            .copied()
            .filter(|r| similar(&center.embedding, &r.embedding, threshold_bps))
            .collect();
        if members.len() > best.1.len() {
            best = (Some(*center), members);
        }
    }
    best
}

/// Cycles a reveal's embedding costs: one per component for each committee member it is
/// compared with.
pub fn similarity_cycles(embedding_len: usize, committee: u8) -> u64 {
    (embedding_len as u64).saturating_mul(u64::from(committee))
}

/// Of the agreeing `group` (in reveal order), the results the job keeps: for each
/// `numeric_tolerance` check, those within `tolerance_bps` of the group's lower median at the
/// field (a result exactly at the bound is kept; a median of 0 keeps only 0). Each result is
/// parsed once.
pub fn keep<'r>(spec: &JobSpec, group: Vec<&'r Revealed>) -> Vec<&'r Revealed> {
    let VerificationMode::StructuredMatch { checks } = &spec.verification.mode else {
        return group;
    };
    if spec.verification.snapshot.is_some() {
        return group;
    }
    let tolerances: Vec<(&str, u32)> = checks
        .iter()
        .filter_map(|c| match c {
            Check::NumericTolerance {
                field,
                tolerance_bps,
            } => Some((field.as_str(), *tolerance_bps)),
            _ => None,
        })
        .collect();
    if tolerances.is_empty() {
        return group;
    }
    let mut kept: Vec<(&Revealed, Option<J>)> = group
        .into_iter()
        .map(|r| (r, serde_json::from_slice::<J>(&r.result).ok()))
        .collect();
    for (field, tolerance_bps) in tolerances {
        let value = |doc: &Option<J>| doc.as_ref().and_then(|d| d.pointer(field).and_then(number));
        let mut values: Vec<f64> = kept.iter().filter_map(|(_, d)| value(d)).collect();
        values.sort_by(f64::total_cmp);
        let Some(median) = values.get(values.len().saturating_sub(1) / 2).copied() else {
            return Vec::new();
        };
        let allowed = median.abs() * f64::from(tolerance_bps) / 10_000.0;
        kept.retain(|(_, d)| value(d).is_some_and(|v| (v - median).abs() <= allowed));
    }
    kept.into_iter().map(|(r, _)| r).collect()
}

/// The lower-median result of `kept` by the number at `field` (ties in `kept`'s order).
fn median_by<'r>(kept: &[&'r Revealed], field: &str) -> Option<&'r Revealed> {
    let mut valued: Vec<(f64, &Revealed)> = kept
        .iter()
        .filter_map(|r| {
            let doc: J = serde_json::from_slice(&r.result).ok()?;
            Some((number(doc.pointer(field)?)?, *r))
        })
        .collect();
    valued.sort_by(|a, b| a.0.total_cmp(&b.0));
    valued
        .get(valued.len().saturating_sub(1) / 2)
        .map(|(_, r)| *r)
}

/// Which of the kept group's results is the job's result:
/// - snapshot `median`: the lower median at the first extraction rule;
/// - snapshot `first_valid` / `latest`: the first / last in the committee's draw order (fixed
///   by the beacon, so neither the aggregator's batch order nor a member's timing picks it);
/// - `structured_match` with a `numeric_tolerance` check: the lower median at its first such
///   field (so the aggregator cannot bias it within the tolerance);
/// - otherwise the first revealed.
pub fn chosen<'r>(job: &JobRecord, kept: &[&'r Revealed]) -> Option<&'r Revealed> {
    let order = |r: &&Revealed| {
        job.draws
            .last()
            .and_then(|d| d.committee.iter().position(|m| *m == r.runner))
            .unwrap_or(usize::MAX)
    };
    match job.spec.verification.snapshot {
        Some(SnapshotMode::Median) => median_by(kept, &snapshot_field(&job.spec)?),
        Some(SnapshotMode::FirstValid) => kept.iter().copied().min_by_key(order),
        Some(SnapshotMode::Latest) => kept.iter().copied().max_by_key(order),
        Some(SnapshotMode::Majority) => kept.first().copied(),
        None => match &job.spec.verification.mode {
            VerificationMode::StructuredMatch { checks } => {
                let tolerance = checks.iter().find_map(|c| match c {
                    Check::NumericTolerance { field, .. } => Some(field.as_str()),
                    _ => None,
                });
                match tolerance {
                    Some(field) => median_by(kept, field),
                    None => kept.first().copied(),
                }
            }
            _ => kept.first().copied(),
        },
    }
}

/// A JSON value's canonical text, independent of how it was written and of serde_json's
/// features: object keys sorted by their bytes, numbers by value (an integral number within
/// ±2^53 as an integer, so `1` and `1.0` agree; others in Rust's shortest round-trip form),
/// strings escaped by serde_json's string writer.
pub fn canonical_json(v: &J, out: &mut Vec<u8>) {
    match v {
        J::Null => out.extend_from_slice(b"null"),
        J::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        J::Number(n) => {
            let text = if let Some(i) = n.as_i64() {
                i.to_string()
            } else if let Some(u) = n.as_u64() {
                u.to_string()
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 {
                    (f as i64).to_string()
                } else {
                    format!("{f:?}")
                }
            };
            out.extend_from_slice(text.as_bytes());
        }
        J::String(s) => {
            let quoted = serde_json::to_string(s).unwrap_or_default();
            out.extend_from_slice(quoted.as_bytes());
        }
        J::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                canonical_json(item, out);
            }
            out.push(b']');
        }
        J::Object(map) => {
            let mut entries: Vec<(&String, &J)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push(b'{');
            for (i, (k, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let quoted = serde_json::to_string(k).unwrap_or_default();
                out.extend_from_slice(quoted.as_bytes());
                out.push(b':');
                canonical_json(item, out);
            }
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: serde_json::Value) -> JobSpec {
        let mut base = serde_json::json!({
            "input": {"http": {"method": "GET", "url": "https://api.example.com/p",
                               "extract": ["/usd"]}},
            "bounds": {"max_wall_ms": 2000},
            "schema": {"max_return_bytes": 256, "expected_execution_ms": 100,
                       "data_format": {"json": {"schema":
                           "{\"type\":\"object\",\"required\":[\"usd\"],\"properties\":{\"usd\":{\"type\":\"number\"},\"src\":{\"enum\":[\"cex\",\"dex\"]}}}"}}},
            "verification": {"mode": {"none": {}}},
            "max_price": "1", "timeout_blocks": 1,
            "callback": {"actor": "0x0000000000000000000000000000000000000042", "handler": "h"}
        });
        if let (Some(b), Some(o)) = (base.as_object_mut(), json.as_object()) {
            for (k, v) in o {
                b.insert(k.clone(), v.clone());
            }
        }
        serde_json::from_value(base).expect("spec")
    }

    fn agreement(spec: &JobSpec, result: &[u8]) -> Option<Hash> {
        Checker::new(spec).agreement(result, &[], None)
    }

    fn revealed(result: &str) -> Revealed {
        Revealed {
            runner: cowboy_types::Address([1; 20]),
            agreement: None,
            result: cowboy_types::bounded::Bytes::new(result.as_bytes().to_vec()).unwrap(),
            tokens: 0,
            ms: 0,
            embedding: Default::default(),
            fault: None,
        }
    }

    #[test]
    fn similarity_is_an_integer_cosine_and_the_largest_cluster_wins() {
        let q = |v: &[f64]| -> Vec<i16> { v.iter().map(|x| (x * 32767.0) as i16).collect() };
        let a = q(&[0.6, 0.8, 0.0]);
        let b = q(&[0.62, 0.78, 0.05]);
        let c = q(&[0.0, 0.0, 1.0]);
        assert!(similar(&a, &b, 9_900), "cos ≈ 0.998");
        assert!(!similar(&a, &c, 1), "orthogonal");
        assert!(!similar(&a, &q(&[-0.6, -0.8, 0.0]), 1), "opposite");
        assert!(!similar(&a, &a[..2], 1), "lengths differ");
        assert!(similar(&a, &a, 10_000), "identical");
        // cos(a, d) = 0.8 exactly: at the 8,000 bps bound it counts, above it not.
        let d = q(&[0.0, 1.0, 0.0]);
        assert!(similar(&a, &d, 7_999) && !similar(&a, &d, 8_001));
        let with = |e: Vec<i16>| {
            let mut r = revealed("x");
            r.embedding = e.try_into().unwrap();
            r
        };
        let reveals = [
            with(c.clone()),
            with(a.clone()),
            with(b.clone()),
            with(a.clone()),
        ];
        let refs: Vec<&Revealed> = reveals.iter().collect();
        let (center, members) = cluster(9_900, &refs);
        assert_eq!(members.len(), 3);
        assert!(
            std::ptr::eq(center.unwrap(), &reveals[1]),
            "the first of the largest"
        );
    }

    #[test]
    fn the_schema_decides_validity_in_every_mode() {
        let s = spec(serde_json::json!({}));
        assert!(check_spec(&s).is_ok());
        assert!(agreement(&s, br#"{"usd": 5, "src": "cex"}"#).is_some());
        assert!(agreement(&s, br#"{"usd": "5"}"#).is_none(), "wrong type");
        assert!(
            agreement(&s, br#"{"src": "cex"}"#).is_none(),
            "missing field"
        );
        assert!(
            agreement(&s, br#"{"usd": 5, "src": "CEX"}"#).is_none(),
            "not in the enum"
        );
        assert!(agreement(&s, b"not json").is_none());
        let mut bad = s.clone();
        bad.schema.data_format = DataFormat::Json {
            schema: Some(r#"{"$ref": "https://example.com/x.json"}"#.try_into().unwrap()),
        };
        assert!(check_spec(&bad).is_err(), "no remote references");
    }

    #[test]
    fn structured_match_keys_on_matched_fields_and_checks_ranges_and_tolerance() {
        let s = spec(
            serde_json::json!({"verification": {"mode": {"structured_match": {"checks": [
            {"json_schema": {}},
            {"field_match": {"field": "/src"}},
            {"numeric_range": {"field": "/usd", "min": 0, "max": 100000}},
            {"numeric_tolerance": {"field": "/usd", "tolerance_bps": 100}}
        ]}}, "runners": 3}}),
        );
        let a = agreement(&s, br#"{"usd": 64000, "src": "cex"}"#);
        let b = agreement(&s, br#"{"src": "cex", "usd": 64100.5}"#);
        assert!(a.is_some());
        assert_eq!(a, b, "the key is the matched field, not the number");
        assert_ne!(a, agreement(&s, br#"{"usd": 64000, "src": "dex"}"#));
        assert!(
            agreement(&s, br#"{"usd": 200000, "src": "cex"}"#).is_none(),
            "out of range"
        );
        let group = [
            revealed(r#"{"usd": 64000, "src": "cex"}"#),
            revealed(r#"{"usd": 64500, "src": "cex"}"#),
            revealed(r#"{"usd": 70000, "src": "cex"}"#),
        ];
        let kept = keep(&s, group.iter().collect());
        assert_eq!(kept.len(), 2, "70000 is more than 1% from the median 64500");
    }

    #[test]
    fn snapshot_modes_pick_the_first_last_median_or_majority() {
        let results = [
            r#"{"usd": 3}"#,
            r#"{"usd": 1}"#,
            r#"{"usd": 2}"#,
            r#"{"usd": 1}"#,
        ];
        let group: Vec<Revealed> = results.iter().map(|r| revealed(r)).collect();
        let refs: Vec<&Revealed> = group.iter().collect();
        let job = |mode: &str| {
            let s = spec(
                serde_json::json!({"verification": {"mode": {"majority_vote": {"vote_field": "/usd"}},
                "runners": 4, "snapshot": mode}}),
            );
            (s.clone(), fake_job(s))
        };
        let (s, j) = job("median");
        assert_eq!(
            agreement(&s, results[0].as_bytes()),
            agreement(&s, results[1].as_bytes())
        );
        assert_eq!(
            chosen(&j, &refs).unwrap().result.to_vec(),
            br#"{"usd": 1}"#.to_vec()
        );
        let (_, j) = job("latest");
        assert_eq!(
            chosen(&j, &refs).unwrap().result.to_vec(),
            br#"{"usd": 1}"#.to_vec()
        );
        let (_, j) = job("first_valid");
        assert_eq!(
            chosen(&j, &refs).unwrap().result.to_vec(),
            br#"{"usd": 3}"#.to_vec()
        );
        let (s, _) = job("majority");
        assert_ne!(
            agreement(&s, results[0].as_bytes()),
            agreement(&s, results[1].as_bytes())
        );
        assert_eq!(
            agreement(&s, results[1].as_bytes()),
            agreement(&s, results[3].as_bytes())
        );
    }

    fn fake_job(spec: JobSpec) -> JobRecord {
        serde_json::from_value(serde_json::json!({
            "id": Hash::ZERO, "submitter": cowboy_types::Address([0; 20]), "submitted_at": 0,
            "bound_epoch": 0, "bound_view": 0, "spec": spec, "escrow": "0",
            "committee_size": 4, "threshold": 3, "snapshot_root": Hash::ZERO, "candidates": [],
            "min_stake": "1", "status": "verified", "deadline": 0, "draws": [], "excluded": [],
            "commitments": [], "committed_at": 0, "reveals": [], "slashed": [], "result": null,
            "payouts": [], "burn": "0", "treasury": "0", "failure": "", "dispute": null,
            "callbacks_pending": 0
        }))
        .expect("a job record")
    }
}
