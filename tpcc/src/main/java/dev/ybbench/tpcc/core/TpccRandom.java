package dev.ybbench.tpcc.core;

import java.util.Random;

/**
 * The randomness TPC-C prescribes, in one tested place: uniform ranges, NURand (clause 2.1.6),
 * C_LAST from syllables (4.3.2.3), and the string and zip formats of 4.3.2.2 and 4.3.2.7.
 * One instance per thread; not thread-safe.
 */
public final class TpccRandom {
  /** Clause 4.3.2.3: C_LAST is three syllables chosen by the digits of a number in 0..999. */
  static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};

  private static final char[] ALPHANUMERIC =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

  private final Random random;
  private final Constants c;

  /**
   * The run-time constants C of NURand (clause 2.1.6): one per A, chosen once.
   *
   * @param cLast for C_LAST (A = 255)
   * @param cId   for C_ID (A = 1023)
   * @param olIId for OL_I_ID (A = 8191)
   */
  public record Constants(int cLast, int cId, int olIId) {
    /** Random constants for loading. */
    public static Constants forLoad(Random r) {
      return new Constants(r.nextInt(256), r.nextInt(1024), r.nextInt(8192));
    }

    /**
     * Constants for the run, given the load's: clause 2.1.6.1 requires C_LAST's run value to
     * differ from the load value by a delta in [65, 119] other than 96 and 112; C_ID's and
     * OL_I_ID's may be anything.
     */
    public static Constants forRun(Constants load, Random r) {
      int cLast;
      do {
        cLast = r.nextInt(256);
      } while (!validCLastDelta(Math.abs(cLast - load.cLast)));
      return new Constants(cLast, r.nextInt(1024), r.nextInt(8192));
    }

    static boolean validCLastDelta(int delta) {
      return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
  }

  public TpccRandom(long seed, Constants constants) {
    this.random = new Random(seed);
    this.c = constants;
  }

  public Constants constants() {
    return c;
  }

  /** Uniform in [x, y], both ends included. */
  public int uniform(int x, int y) {
    return x + random.nextInt(y - x + 1);
  }

  /** Uniform in [0, 1). */
  public double fraction() {
    return random.nextDouble();
  }

  /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, clause 2.1.6. */
  public int nurand(int a, int x, int y) {
    int constant = switch (a) {
      case 255 -> c.cLast;
      case 1023 -> c.cId;
      case 8191 -> c.olIId;
      default -> throw new IllegalArgumentException("NURand has no constant for A = " + a);
    };
    return (((uniform(0, a) | uniform(x, y)) + constant) % (y - x + 1)) + x;
  }

  /** A customer id for the transactions: NURand(1023, 1, 3000). */
  public int customerId() {
    return nurand(1023, 1, 3000);
  }

  /** An item id for the transactions: NURand(8191, 1, 100000). */
  public int itemId() {
    return nurand(8191, 1, 100000);
  }

  /** A last name to look customers up by in the transactions: from NURand(255, 0, 999). */
  public String lastNameForRun() {
    return lastName(nurand(255, 0, 999));
  }

  /**
   * The C_LAST of customer {@code cId} at load time (clause 4.3.3.1): the first 1,000 customers
   * of a district take the numbers 0..999 in order, so every name exists; the rest draw from
   * NURand(255, 0, 999).
   */
  public String lastNameForLoad(int cId) {
    return lastName(cId <= 1000 ? cId - 1 : nurand(255, 0, 999));
  }

  /** The syllables of the three digits of {@code number} (0..999): 371 is PRI·CALLY·OUGHT. */
  public static String lastName(int number) {
    return SYLLABLES[number / 100] + SYLLABLES[(number / 10) % 10] + SYLLABLES[number % 10];
  }

  /** A random a-string of length in [min, max] (clause 4.3.2.2). */
  public String astring(int min, int max) {
    char[] s = new char[uniform(min, max)];
    for (int i = 0; i < s.length; i++) {
      s[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
    }
    return new String(s);
  }

  /** A random n-string (digits) of length in [min, max]. */
  public String nstring(int min, int max) {
    char[] s = new char[uniform(min, max)];
    for (int i = 0; i < s.length; i++) {
      s[i] = (char) ('0' + random.nextInt(10));
    }
    return new String(s);
  }

  /** A zip code: 4 random digits then "11111" (clause 4.3.2.7). */
  public String zip() {
    return nstring(4, 4) + "11111";
  }

  /**
   * I_DATA or S_DATA (clause 4.3.3.1): an a-string of 26..50 characters; in 10 % of rows,
   * "ORIGINAL" at a random position in it.
   */
  public String dataWithOriginal() {
    String s = astring(26, 50);
    if (uniform(1, 10) != 1) {
      return s;
    }
    int at = uniform(0, s.length() - 8);
    return s.substring(0, at) + "ORIGINAL" + s.substring(at + 8);
  }

  /** A random permutation of 1..n (for the O_C_ID of the initial orders, clause 4.3.3.1). */
  public int[] permutation(int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i + 1;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
