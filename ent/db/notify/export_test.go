package notify

// Written is written, for the table test.
var Written = written
