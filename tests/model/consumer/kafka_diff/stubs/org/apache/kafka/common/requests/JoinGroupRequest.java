// Harness stub (not Kafka code): the assignors compile against these; the harness never
// serializes user data, so the protocol types only need to construct.
package org.apache.kafka.common.requests;
public class JoinGroupRequest { public static final int UNKNOWN_GENERATION_ID = -1; public static final String UNKNOWN_MEMBER_ID = ""; }
