#pragma once
// The reference documents generated from the field tables: scenarios/reference.yaml (a
// runnable scenario listing every key with its doc) and docs/scenario-fields.md (one table
// per mapping). `make reference` writes both; a test checks the checked-in copies.

#include <string>

namespace partsim::scenarios {

/// scenarios/reference.yaml: every key with its value in a runnable example (defaults,
/// except what the example sets) and its doc, unit and range as a comment.
std::string reference_yaml();

/// docs/scenario-fields.md: per mapping, each key's type, unit, default (and kafka-3.x
/// default), allowed values and meaning.
std::string field_reference_markdown();

}  // namespace partsim::scenarios
