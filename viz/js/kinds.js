// What each kind of scene record is drawn with: its markup (shell), its model (every run checked now) and its view.
// main.js draws a record by its header's kind; each view module says its own kind.
import {COMPARE_KIND} from "./compare.js";
import {DUAL_KIND} from "./dual.js";
import {FIGURE_KIND} from "./figure.js";
import {LOSS_KIND} from "./loss.js";
import {LOSSDATA_KIND} from "./lossdata.js";
import {PERCEPTRON_KIND, PerceptronView} from "./perceptron.js";
import {QUIZ_SHELL, QuizView} from "./quiz.js";
import {SGD_KIND} from "./sgd.js";
import {SHELL} from "./shells.js";
import {SVM_KIND} from "./svm.js";


export const KINDS = {
  perceptron: {
    ...PERCEPTRON_KIND,
    // the Perceptron page's quiz is its own record shown as a question (quiz.js)
    shellFor: (scene) => (scene.header.view.quiz ? QUIZ_SHELL : SHELL),
    viewFor: (scene) => (scene.header.view.quiz ? QuizView : PerceptronView),
  },
  dual: DUAL_KIND,
  svm: SVM_KIND,
  compare: COMPARE_KIND,
  sgd: SGD_KIND,
  loss: LOSS_KIND,
  lossdata: LOSSDATA_KIND,
  figure: FIGURE_KIND,
};
