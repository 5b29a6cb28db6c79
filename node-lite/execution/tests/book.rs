//! The execution reference chapter (`book/src/reference/execution.md`) shows a complete genesis
//! file whose `parameters` are meant to be exactly the genesis defaults: keep it true.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Test code: a failure is the test failing.

use cowboy_execution::{Genesis, Parameters};

fn chapter() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../book/src/reference/execution.md"
    ))
    .expect("the execution chapter")
}

fn first_json_block(text: &str) -> String {
    let start = text.find("```json\n").expect("a json block") + "```json\n".len();
    let end = start + text[start..].find("```").expect("closed block");
    text[start..end].to_owned()
}

#[test]
fn the_genesis_example_is_valid_and_shows_every_default() {
    let json = first_json_block(&chapter());
    let genesis = Genesis::parse(&json).expect("the book's genesis parses and validates");
    assert_eq!(genesis.parameters, Parameters::default());
    // Every field is spelled out: the example's parameters object equals the serialized
    // defaults, field for field.
    let doc: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(
        doc["parameters"],
        serde_json::to_value(Parameters::default()).expect("serialize")
    );
}

#[test]
fn a_misspelt_parameter_is_refused_with_its_path() {
    let json = first_json_block(&chapter()).replace("\"min_basefee\"", "\"min_base_fee\"");
    let err = Genesis::parse(&json).unwrap_err().to_string();
    assert!(
        err.contains("parameters.basefee") && err.contains("min_base_fee"),
        "{err}"
    );
}

#[test]
fn a_genesis_without_validators_is_refused() {
    let json = r#"{"chain_id": 7, "validators": []}"#;
    let err = Genesis::parse(json).unwrap_err().to_string();
    assert!(err.contains("at least one validator"), "{err}");
}
