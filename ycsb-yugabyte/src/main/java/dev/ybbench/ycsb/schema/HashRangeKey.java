package dev.ybbench.ycsb.schema;

/**
 * Maps a YCSB key ("user" followed by a number) to the (key1, key2) pair of the hash-range
 * layout by a fixed split size: key number n belongs to thread {@code n / split} as post
 * {@code n % split}. With {@code insertorder=ordered} the key numbers are dense, so each
 * thread holds {@code split} consecutive posts and a scan stays inside one thread.
 *
 * @param key1 the hash-sharded "thread" column
 * @param key2 the range-sharded "post" column within the thread
 */
public record HashRangeKey(long key1, long key2) {

  public static HashRangeKey of(String ycsbKey, long split) {
    long n = keyNumber(ycsbKey);
    return new HashRangeKey(n / split, n % split);
  }

  /** The number in a YCSB key: "user000123" is 123. */
  public static long keyNumber(String ycsbKey) {
    int i = 0;
    while (i < ycsbKey.length() && !Character.isDigit(ycsbKey.charAt(i))) {
      i++;
    }
    if (i == ycsbKey.length()) {
      throw new IllegalArgumentException("YCSB key '" + ycsbKey + "' has no number for the hash-range layout");
    }
    return Long.parseLong(ycsbKey.substring(i));
  }
}
