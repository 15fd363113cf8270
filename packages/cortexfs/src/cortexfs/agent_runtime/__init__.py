"""A running agent: the supervisor process `ctx agent start` leaves behind, its agent
socket (JSONL ping/send/resume/status/cancel/stop), its turns (one sandbox each), the
tool broker, and the session records it keeps under home/<uid>/agent/<a>/session/."""
