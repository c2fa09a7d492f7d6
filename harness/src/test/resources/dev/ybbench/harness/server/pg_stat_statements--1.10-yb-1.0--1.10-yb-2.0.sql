-- source: yugabyte/yugabyte-db src/postgres/contrib/pg_stat_statements/pg_stat_statements--1.10-yb-1.0--1.10-yb-2.0.sql @ d48a5e4491bca1dcd64ca43f580240eb9e050f75
/* contrib/pg_stat_statements/pg_stat_statements--1.10-yb-1.0--1.10-yb-2.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION pg_stat_statements UPDATE TO '1.10-yb-2.0'" to load this file. \quit

/* First we have to remove them from the extension */
ALTER EXTENSION pg_stat_statements DROP VIEW pg_stat_statements;
ALTER EXTENSION pg_stat_statements DROP FUNCTION pg_stat_statements(boolean);

/* Then we can drop them */
DROP VIEW IF EXISTS pg_stat_statements;
DROP FUNCTION IF EXISTS pg_stat_statements(boolean);

-- Update the view pg_stat_statements.
-- Register functions.

CREATE OR REPLACE FUNCTION pg_stat_statements(IN showtext boolean,
     OUT userid oid,
    OUT dbid oid,
    OUT toplevel bool,
    OUT queryid bigint,
    OUT query text,
    OUT plans int8,
    OUT total_plan_time float8,
    OUT min_plan_time float8,
    OUT max_plan_time float8,
    OUT mean_plan_time float8,
    OUT stddev_plan_time float8,
    OUT calls int8,
    OUT total_exec_time float8,
    OUT min_exec_time float8,
    OUT max_exec_time float8,
    OUT mean_exec_time float8,
    OUT stddev_exec_time float8,
    OUT rows int8,
    OUT shared_blks_hit int8,
    OUT shared_blks_read int8,
    OUT shared_blks_dirtied int8,
    OUT shared_blks_written int8,
    OUT local_blks_hit int8,
    OUT local_blks_read int8,
    OUT local_blks_dirtied int8,
    OUT local_blks_written int8,
    OUT temp_blks_read int8,
    OUT temp_blks_written int8,
    OUT blk_read_time float8,
    OUT blk_write_time float8,
    OUT temp_blk_read_time float8,
    OUT temp_blk_write_time float8,
    OUT wal_records int8,
    OUT wal_fpi int8,
    OUT wal_bytes numeric,
    OUT jit_functions int8,
    OUT jit_generation_time float8,
    OUT jit_inlining_count int8,
    OUT jit_inlining_time float8,
    OUT jit_optimization_count int8,
    OUT jit_optimization_time float8,
    OUT jit_emission_count int8,
    OUT jit_emission_time float8,
    OUT yb_latency_histogram jsonb,
    OUT docdb_read_rpcs int8,
    OUT docdb_write_rpcs int8,
    OUT catalog_wait_time float8,
    OUT docdb_read_operations int8,
    OUT docdb_write_operations int8,
    OUT docdb_rows_scanned int8,
    OUT docdb_rows_returned int8,
    OUT docdb_wait_time float8,
    OUT conflict_retries int8,
    OUT read_restart_retries int8,
    OUT total_retries int8
)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'yb_2_0_pg_stat_statements_1_10'
LANGUAGE C STRICT VOLATILE PARALLEL SAFE;

-- Register a view on the function for ease of use.
CREATE OR REPLACE VIEW pg_stat_statements AS
  SELECT * FROM pg_stat_statements(true);

GRANT SELECT ON pg_stat_statements TO PUBLIC;
