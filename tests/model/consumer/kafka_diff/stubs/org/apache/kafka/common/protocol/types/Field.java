// Harness stub (not Kafka code): the assignors compile against these; the harness never
// serializes user data, so the protocol types only need to construct.
package org.apache.kafka.common.protocol.types;
public class Field { public Field(String n, Type t) {} }
