package dev.ybbench.harness.retry;

/**
 * What one failed attempt means.
 *
 * @param errorClass  what it is counted under in the results: "sqlstate-40001", "connection",
 *                    "timeout", "no-node", …
 * @param retryable   the same request may succeed if sent again
 * @param unreachable the attempt did not reach the server: refused, lost, or no node to send to
 */
public record Failure(String errorClass, boolean retryable, boolean unreachable) {}
