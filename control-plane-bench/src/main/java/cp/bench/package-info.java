/**
 * {@code cpctl bench}: measures what the control plane costs on top of the LLM calls it
 * orchestrates, as ratios against a plain Java loop taken side by side in one run.
 *
 * <p>A local fake Anthropic server with a fixed latency serves both sides, so the real
 * AnthropicProvider, Gateway and ledgers are exercised; the orchestrated side is the embedded
 * Temporal service with a worker and the client, exactly as {@code cpctl chat} assembles them.
 * This package does I/O and reads clocks freely: it is a tool, not workflow code.
 */
package cp.bench;
