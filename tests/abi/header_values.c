/* The MPICH ABI, written out: values that compiled programs carry in their
 * machine code.  The numbers here are facts about MPICH 4.0 on LP64 Linux
 * (handle encodings, error classes, type widths, the MPI_Status layout); a
 * change to any of them in mpi.h breaks binary compatibility.
 *
 * Integer constants are checked at compile time; pointer-valued constants,
 * which a static assertion cannot evaluate, when the program runs. */
#include <mpi.h>

#include <stddef.h>
#include <stdio.h>

#define ABI(name, value) _Static_assert((long)(name) == (long)(value), #name " is not " #value)

/* Type widths and the status layout */
_Static_assert(sizeof(MPI_Aint) == 8, "sizeof(MPI_Aint)");
_Static_assert(sizeof(MPI_Offset) == 8, "sizeof(MPI_Offset)");
_Static_assert(sizeof(MPI_Count) == 8, "sizeof(MPI_Count)");
_Static_assert(sizeof(MPI_Fint) == 4, "sizeof(MPI_Fint)");
_Static_assert(sizeof(MPI_Comm) == 4 && sizeof(MPI_Datatype) == 4 && sizeof(MPI_Request) == 4,
               "integer handles");
_Static_assert(sizeof(MPI_File) == 8, "sizeof(MPI_File)");
_Static_assert(sizeof(MPI_Status) == 20, "sizeof(MPI_Status)");
_Static_assert(offsetof(MPI_Status, count_lo) == 0, "MPI_Status.count_lo");
_Static_assert(offsetof(MPI_Status, count_hi_and_cancelled) == 4, "MPI_Status.count_hi");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == 8, "MPI_Status.MPI_SOURCE");
_Static_assert(offsetof(MPI_Status, MPI_TAG) == 12, "MPI_Status.MPI_TAG");
_Static_assert(offsetof(MPI_Status, MPI_ERROR) == 16, "MPI_Status.MPI_ERROR");
_Static_assert(sizeof(MPI_F08_status) == 20, "sizeof(MPI_F08_status)");

/* Handles */
ABI(MPI_COMM_WORLD, 0x44000000);
ABI(MPI_COMM_SELF, 0x44000001);
ABI(MPI_COMM_NULL, 0x04000000);
ABI(MPI_GROUP_EMPTY, 0x48000000);
ABI(MPI_GROUP_NULL, 0x08000000);
ABI(MPI_DATATYPE_NULL, 0x0c000000);
ABI(MPI_REQUEST_NULL, 0x2c000000);
ABI(MPI_MESSAGE_NO_PROC, 0x6c000000);
ABI(MPI_OP_NULL, 0x18000000);
ABI(MPI_INFO_NULL, 0x1c000000);
ABI(MPI_INFO_ENV, 0x5c000001);
ABI(MPI_WIN_NULL, 0x20000000);
ABI(MPI_SESSION_NULL, 0x38000000);
ABI(MPI_ERRORS_ARE_FATAL, 0x54000000);
ABI(MPI_ERRORS_RETURN, 0x54000001);
ABI(MPI_ERRORS_ABORT, 0x54000003);

/* Datatypes */
ABI(MPI_CHAR, 0x4c000101);
ABI(MPI_BYTE, 0x4c00010d);
ABI(MPI_PACKED, 0x4c00010f);
ABI(MPI_INT, 0x4c000405);
ABI(MPI_UNSIGNED, 0x4c000406);
ABI(MPI_LONG, 0x4c000807);
ABI(MPI_LONG_LONG, 0x4c000809);
ABI(MPI_UNSIGNED_LONG_LONG, 0x4c000819);
ABI(MPI_FLOAT, 0x4c00040a);
ABI(MPI_DOUBLE, 0x4c00080b);
ABI(MPI_LONG_DOUBLE, 0x4c00100c);
ABI(MPI_WCHAR, 0x4c00040e);
ABI(MPI_INT64_T, 0x4c00083a);
ABI(MPI_UINT8_T, 0x4c00013b);
ABI(MPI_C_BOOL, 0x4c00013f);
ABI(MPI_C_DOUBLE_COMPLEX, 0x4c001041);
ABI(MPI_AINT, 0x4c000843);
ABI(MPI_OFFSET, 0x4c000844);
ABI(MPI_COUNT, 0x4c000845);
ABI(MPI_2INT, 0x4c000816);
ABI(MPI_DOUBLE_INT, (int)0x8c000001);
ABI(MPI_LONG_DOUBLE_INT, (int)0x8c000004);
ABI(MPI_INTEGER, 0x4c00041b);
ABI(MPI_DOUBLE_PRECISION, 0x4c00081f);

/* Reduction operations */
ABI(MPI_MAX, 0x58000001);
ABI(MPI_SUM, 0x58000003);
ABI(MPI_BXOR, 0x5800000a);
ABI(MPI_MAXLOC, 0x5800000c);
ABI(MPI_REPLACE, 0x5800000d);
ABI(MPI_NO_OP, 0x5800000e);

/* Special values and limits */
ABI(MPI_PROC_NULL, -1);
ABI(MPI_ANY_SOURCE, -2);
ABI(MPI_ROOT, -3);
ABI(MPI_ANY_TAG, -1);
ABI(MPI_UNDEFINED, -32766);
ABI(MPI_KEYVAL_INVALID, 0x24000000);
ABI(MPI_TAG_UB, 0x64400001);
ABI(MPI_UNIVERSE_SIZE, 0x64400009);
ABI(MPI_WIN_BASE, 0x66000001);
ABI(MPI_THREAD_SINGLE, 0);
ABI(MPI_THREAD_MULTIPLE, 3);
ABI(MPI_BSEND_OVERHEAD, 96);
ABI(MPI_MAX_PROCESSOR_NAME, 128);
ABI(MPI_MAX_ERROR_STRING, 512);
ABI(MPI_MAX_OBJECT_NAME, 128);
ABI(MPI_MAX_INFO_KEY, 255);
ABI(MPI_MAX_INFO_VAL, 1024);
ABI(MPI_MAX_PORT_NAME, 256);
ABI(MPI_MAX_LIBRARY_VERSION_STRING, 8192);
ABI(MPI_IDENT, 0);
ABI(MPI_UNEQUAL, 3);
ABI(MPI_CART, 2);
ABI(MPI_DIST_GRAPH, 3);
ABI(MPI_COMBINER_STRUCT, 12);
ABI(MPI_COMBINER_HINDEXED_BLOCK, 19);
ABI(MPI_ORDER_FORTRAN, 57);
ABI(MPI_DISTRIBUTE_DFLT_DARG, -49767);
ABI(MPI_COMM_TYPE_SHARED, 1);
ABI(MPI_LOCK_EXCLUSIVE, 234);
ABI(MPI_MODE_NOCHECK, 1024);
ABI(MPI_WIN_FLAVOR_SHARED, 4);
ABI(MPI_WIN_UNIFIED, 2);
ABI(MPI_MODE_CREATE, 1);
ABI(MPI_MODE_RDWR, 8);
ABI(MPI_SEEK_END, 604);
ABI(MPI_DISPLACEMENT_CURRENT, -54278278);

/* Error classes */
ABI(MPI_SUCCESS, 0);
ABI(MPI_ERR_BUFFER, 1);
ABI(MPI_ERR_COMM, 5);
ABI(MPI_ERR_TRUNCATE, 14);
ABI(MPI_ERR_OTHER, 15);
ABI(MPI_ERR_IN_STATUS, 17);
ABI(MPI_ERR_PENDING, 18);
ABI(MPI_ERR_REQUEST, 19);
ABI(MPI_ERR_UNSUPPORTED_OPERATION, 44);
ABI(MPI_ERR_KEYVAL, 48);
ABI(MPI_ERR_RMA_FLAVOR, 58);
ABI(MPI_T_ERR_INVALID, 74);
ABI(MPI_ERR_SESSION, 75);
ABI(MPI_T_ERR_NOT_SUPPORTED, 78);
ABI(MPI_ERR_LASTCODE, 0x3fffffff);

/* MPI_T */
ABI(MPI_T_VERBOSITY_USER_BASIC, 221);
ABI(MPI_T_VERBOSITY_MPIDEV_ALL, 229);
ABI(MPI_T_BIND_NO_OBJECT, 9700);
ABI(MPI_T_BIND_MPI_INFO, 9710);
ABI(MPI_T_SCOPE_CONSTANT, 60438);
ABI(MPI_T_PVAR_CLASS_STATE, 240);
ABI(MPI_T_PVAR_CLASS_GENERIC, 249);

/* Additions MPICH 4.0 lacks must not reuse any of its values. */
_Static_assert(MPI_ERR_ERRHANDLER > 78 && MPI_ERR_ERRHANDLER < 100, "MPI_ERR_ERRHANDLER");
_Static_assert(MPI_T_ERR_NOT_ACCESSIBLE > 78 && MPI_T_ERR_NOT_ACCESSIBLE < 100,
               "MPI_T_ERR_NOT_ACCESSIBLE");
_Static_assert(MPI_ERR_ERRHANDLER != MPI_T_ERR_NOT_ACCESSIBLE, "new error classes");
_Static_assert(MPI_COMM_TYPE_RESOURCE_GUIDED > 4, "MPI_COMM_TYPE_RESOURCE_GUIDED");
_Static_assert(MPI_COMBINER_VALUE_INDEX > 19, "MPI_COMBINER_VALUE_INDEX");

static int failures;

static void check_ptr(const char *name, const void *got, long want)
{
    if ((long)got != want) {
        printf("%s is %ld, MPICH has %ld\n", name, (long)got, want);
        failures++;
    }
}

#define ABI_PTR(name, value) check_ptr(#name, (const void *)(name), (value))

int main(void)
{
    ABI_PTR(MPI_BOTTOM, 0);
    ABI_PTR(MPI_IN_PLACE, -1);
    ABI_PTR(MPI_STATUS_IGNORE, 1);
    ABI_PTR(MPI_STATUSES_IGNORE, 1);
    ABI_PTR(MPI_ERRCODES_IGNORE, 0);
    ABI_PTR(MPI_ARGV_NULL, 0);
    ABI_PTR(MPI_ARGVS_NULL, 0);
    ABI_PTR(MPI_FILE_NULL, 0);
    ABI_PTR(MPI_T_PVAR_HANDLE_NULL, 0);
    if ((long)MPI_BUFFER_AUTOMATIC == 0 || (long)MPI_BUFFER_AUTOMATIC == -1) {
        printf("MPI_BUFFER_AUTOMATIC collides with MPI_BOTTOM or MPI_IN_PLACE\n");
        failures++;
    }
    return failures != 0;
}
