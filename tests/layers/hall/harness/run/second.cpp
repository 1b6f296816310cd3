// A fixture: one of two sources in a folder whose limit the test sets to one.
int second();
