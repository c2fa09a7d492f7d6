package dev.ybbench.harness.retry;

/**
 * What follows a failed attempt.
 *
 * @param retry       send the request again after {@code delayMillis}; otherwise the operation
 *                    ends with this failure
 * @param delayMillis the pause before the next attempt
 */
public record Decision(Failure failure, boolean retry, long delayMillis) {}
