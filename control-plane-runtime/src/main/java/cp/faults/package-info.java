/**
 * Test-only fault injection: {@link cp.faults.FaultPoints} names the places where a
 * multi-process test may stop a worker (inside a tool call, inside a ledger append, inside the
 * attention step). It is off unless the worker is started with {@code CP_FAULT_PAUSE}, which a
 * real deployment never sets.
 */
package cp.faults;
