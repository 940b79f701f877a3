/** The two CSV templates (admin side, section 9): both named user_upload_template.csv. */
export const TEMPLATE_FILENAME = "user_upload_template.csv";

/** /admin/upload: 8 sample rows in the four accepted date formats. */
export const FULL_TEMPLATE =
  [
    "certificate_number,birthdate,first_name,last_name,email",
    "AHA100001,1980-01-15,John,Smith,john.smith@example.com",
    "AHA100002,03/22/1975,Maria,Garcia,maria.garcia@example.com",
    "AHA100003,07-04-1968,Robert,Johnson,",
    "AHA100004,1992/11/30,Linda,Williams,linda.w@example.com",
    "AHA100005,1985-06-09,James,Brown,",
    "AHA100006,12/01/1990,Patricia,Davis,patricia.davis@example.com",
    "AHA100007,02-14-1979,Michael,Miller,",
    "AHA100008,2001/08/23,Jennifer,Wilson,jennifer.wilson@example.com",
  ].join("\r\n") + "\r\n";

/** /admin/users: the two required columns, 2 rows. */
export const SHORT_TEMPLATE = ["certificate_number,birthdate", "AHA100001,1980-01-15", "AHA100002,1975-03-22"].join("\r\n") + "\r\n";

/** Offers a text as a file download in the browser. */
export function downloadCsv(text: string, filename = TEMPLATE_FILENAME) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
