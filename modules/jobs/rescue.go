package jobs

import (
	"context"
)

// rescueOwn makes available again the jobs this client (Config.ID) left running: a process
// starting under an id that has jobs running is a restart of a process that died with them
// (the id is its host and listen address: no two live processes share one). River's own
// rescuer would take them back too, but only RescueAfter later.
func (q *Queue) rescueOwn(ctx context.Context) (int64, error) {
	query := `UPDATE river_job SET state = 'available', scheduled_at = datetime('now', 'subsec')
WHERE state = 'running' AND json_extract(attempted_by, '$[#-1]') = ?`
	if q.postgres {
		query = `UPDATE river_job SET state = 'available', scheduled_at = now()
WHERE state = 'running' AND attempted_by[array_length(attempted_by, 1)] = ?`
	}
	res := q.db.WithContext(ctx).Exec(query, q.cfg.ID)
	return res.RowsAffected, res.Error
}
