// Harness stub (not Kafka code): the assignors compile against these; the harness never
// serializes user data, so the protocol types only need to construct.
package org.apache.kafka.common.protocol.types;
public class Schema { public Schema(Field... f) {} public int sizeOf(Object o) { throw new UnsupportedOperationException(); } public void write(java.nio.ByteBuffer b, Object o) { throw new UnsupportedOperationException(); } public Struct read(java.nio.ByteBuffer b) { throw new UnsupportedOperationException(); } }
