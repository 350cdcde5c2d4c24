# Writes OUTPUT, what --version says: the project's VERSION and the commit
# of SOURCE_DIR being built (empty outside a git checkout). Run at every
# build; the file is rewritten only when its text changes, so the tools
# are relinked only then.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
  OUTPUT_VARIABLE revision
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE failed)
if(failed)
  set(revision "")
endif()
set(text "#define MLA_VERSION \"${VERSION}\"\n#define MLA_REVISION \"${revision}\"\n")
# configure_file touches OUTPUT only when its text changes.
file(WRITE "${OUTPUT}.new" "${text}")
configure_file("${OUTPUT}.new" "${OUTPUT}" COPYONLY)
