/** Public-side spec, section 9: business hours and the contact promise. */
export const BUSINESS_HOURS = [
  { days: "Monday to Friday", hours: "8:00 AM to 6:00 PM EST" },
  { days: "Saturday", hours: "9:00 AM to 3:00 PM EST" },
  { days: "Sunday", hours: "Closed" },
] as const;

export const REPLY_PROMISE_HOURS = 24;

/** Spec section 8, contact form. */
export const CONTACT_SUCCESS = "Thank you for contacting us! We will respond within 24 hours. Your message has been recorded.";
export const CONTACT_FAILURE =
  "There was an error submitting your form. The form has been saved locally. Please try again or contact support.";
/** The same failure when the form was posted without JavaScript: the page hands the message back instead. */
export const CONTACT_FAILURE_NO_SCRIPT =
  "There was an error submitting your form. Your message is still in the form below. Please try again or contact support.";
