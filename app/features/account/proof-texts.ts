/** What My account's proof-of-coverage section says (issue 31). */
export const PROOF_TEXTS = {
  intro:
    "Print this card or save it as a PDF. Its QR code opens a page that says whether you are covered and through when, with first names and last initials only.",
  print: "Print or save as PDF",
  renew: "New code",
  renewTitle: "Make a new code?",
  renewBody:
    "The QR code on every card you printed or saved before stops working at once: scanning it will no longer show your coverage. Print or save the new card afterwards.",
  renewConfirm: "Make a new code",
  renewBusy: "Making a new code...",
  renewed: "Your card has a new code. Cards printed or saved before no longer verify.",
  renewFailed: (reason: string) => `Could not make a new code: ${reason}`,
  noPlan: "Your proof of coverage card appears here once your membership has a plan on record.",
} as const;
