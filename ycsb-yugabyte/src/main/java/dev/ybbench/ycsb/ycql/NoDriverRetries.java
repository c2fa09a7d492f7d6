package dev.ybbench.ycsb.ycql;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.retry.RetryDecision;
import com.datastax.oss.driver.api.core.retry.RetryPolicy;
import com.datastax.oss.driver.api.core.servererrors.CoordinatorException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import com.datastax.oss.driver.api.core.session.Request;

/**
 * A driver retry policy that never retries: the binding retries itself, so that every retry is
 * counted in the results instead of hiding inside the driver.
 */
public final class NoDriverRetries implements RetryPolicy {
  public NoDriverRetries(DriverContext context, String profileName) {
    // the driver instantiates policies reflectively with this signature
  }

  @Override
  @Deprecated
  public RetryDecision onReadTimeout(Request request, ConsistencyLevel cl, int blockFor, int received,
      boolean dataPresent, int retryCount) {
    return RetryDecision.RETHROW;
  }

  @Override
  @Deprecated
  public RetryDecision onWriteTimeout(Request request, ConsistencyLevel cl, WriteType writeType, int blockFor,
      int received, int retryCount) {
    return RetryDecision.RETHROW;
  }

  @Override
  @Deprecated
  public RetryDecision onUnavailable(Request request, ConsistencyLevel cl, int required, int alive,
      int retryCount) {
    return RetryDecision.RETHROW;
  }

  @Override
  @Deprecated
  public RetryDecision onRequestAborted(Request request, Throwable error, int retryCount) {
    return RetryDecision.RETHROW;
  }

  @Override
  @Deprecated
  public RetryDecision onErrorResponse(Request request, CoordinatorException error, int retryCount) {
    return RetryDecision.RETHROW;
  }

  @Override
  public void close() {}
}
