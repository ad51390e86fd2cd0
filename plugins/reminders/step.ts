/** One reminder step (option `reminder_steps`): sent `offset_days` after the due date (negative: before). */
export interface ReminderStep {
  offset_days: number;
  subject: string;
  body: string;
}
